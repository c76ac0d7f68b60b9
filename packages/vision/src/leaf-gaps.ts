/**
 * The second check on counted rust (docs/decisions/0120): a counted pixel stays only where the leaf around it
 * agrees that it is a spot on the leaf. On a bean leaf a pustule is a small island of colour inside green tissue;
 * soil seen between leaflets, a leaf stalk or the leaf's torn margin is a larger stretch of non-green that runs
 * to the mask's edge. So the non-green pixels inside the leaf mask are grouped (8-connected); a group larger than
 * `maxGap` pixels, or one that reaches the mask's edge or the photo's, is a gap, and the rust counted in it is not
 * counted. Pure TypeScript, deterministic; server and phone run it through `rustPixels`.
 */
import { scratch } from './scratch.ts';

const STEPS = [-1, 0, 1] as const;

/**
 * Un-counts (kind 3 → 2) the rust pixels that lie in a gap of the leaf (see the file's comment); `kind` as
 * `rustPixels` writes it (1 green leaf, 3 counted rust), `mask` the leaf mask. Returns how many it un-counted.
 */
export function dropGaps(kind: Uint8Array, mask: Uint8Array, side: number, maxGap: number): number {
  const n = side * side;
  const group = scratch('leafGaps.group', Int32Array, n).fill(-1);
  const stack = scratch('leafGaps.stack', Int32Array, n);
  const members = scratch('leafGaps.members', Int32Array, n);
  let dropped = 0;
  for (let start = 0; start < n; start++) {
    if (kind[start] !== 3 || group[start] >= 0) continue;
    // The non-green group this counted pixel belongs to.
    let top = 0;
    let size = 0;
    let open = false;
    group[start] = start;
    stack[top++] = start;
    while (top > 0) {
      const i = stack[--top];
      members[size++] = i;
      const x = i % side;
      const y = (i - x) / side;
      for (const dy of STEPS)
        for (const dx of STEPS) {
          const nx = x + dx;
          const ny = y + dy;
          if (nx < 0 || ny < 0 || nx >= side || ny >= side) {
            open = true;
            continue;
          }
          const j = ny * side + nx;
          if (!mask[j]) open = true;
          else if (kind[j] !== 1 && group[j] < 0) {
            group[j] = start;
            stack[top++] = j;
          }
        }
    }
    if (!open && size <= maxGap) continue;
    for (let k = 0; k < size; k++)
      if (kind[members[k]] === 3) {
        kind[members[k]] = 2;
        dropped++;
      }
  }
  return dropped;
}
