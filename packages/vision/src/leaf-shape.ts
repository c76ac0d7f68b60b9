/**
 * Shape tools for the leaf mask (leaf-mask.ts) on a side×side 0/1 grid: dilation and erosion, connected regions,
 * the distance to the background and the watershed that parts touching leaves at their necks. Pure TypeScript,
 * linear in the pixels.
 */

/** Square dilation (`grow`) or erosion of a 0/1 mask by `r` pixels: a sliding count along rows, then columns. */
export function morph(mask: Uint8Array, side: number, r: number, grow: boolean): Uint8Array {
  const pass = (src: Uint8Array, step: number, across: number) => {
    const out = new Uint8Array(src.length);
    for (let line = 0; line < side; line++) {
      const base = line * across;
      let ones = 0;
      for (let k = 0; k < Math.min(r, side); k++) ones += src[base + k * step];
      for (let k = 0; k < side; k++) {
        if (k + r < side) ones += src[base + (k + r) * step];
        if (k - r - 1 >= 0) ones -= src[base + (k - r - 1) * step];
        const width = Math.min(side - 1, k + r) - Math.max(0, k - r) + 1;
        out[base + k * step] = grow ? (ones > 0 ? 1 : 0) : ones === width ? 1 : 0;
      }
    }
    return out;
  };
  return pass(pass(mask, 1, side), side, 1);
}

/** 4-connected regions of pixels where `inside` is 1: a label per pixel (0: none) and each region's pixels. */
export function regions(side: number, inside: Uint8Array) {
  const n = side * side;
  const label = new Int32Array(n);
  const members: Int32Array[] = [];
  const stack = new Int32Array(n);
  const pixels = new Int32Array(n);
  for (let start = 0; start < n; start++) {
    if (label[start] || !inside[start]) continue;
    const id = members.length + 1;
    let top = 0;
    let count = 0;
    label[start] = id;
    stack[top++] = start;
    while (top > 0) {
      const i = stack[--top];
      pixels[count++] = i;
      const x = i % side;
      if (i >= side && !label[i - side] && inside[i - side]) {
        label[i - side] = id;
        stack[top++] = i - side;
      }
      if (i < n - side && !label[i + side] && inside[i + side]) {
        label[i + side] = id;
        stack[top++] = i + side;
      }
      if (x > 0 && !label[i - 1] && inside[i - 1]) {
        label[i - 1] = id;
        stack[top++] = i - 1;
      }
      if (x < side - 1 && !label[i + 1] && inside[i + 1]) {
        label[i + 1] = id;
        stack[top++] = i + 1;
      }
    }
    members.push(pixels.slice(0, count));
  }
  return { label, members };
}

/**
 * Distance of each pixel of `mask` to the nearest pixel outside it, in thirds of a pixel (chamfer 3-4). Beyond
 * the photo's edge counts as inside: a leaf that fills the photo is far from any background, not near the edge.
 */
export function distanceInside(mask: Uint8Array, side: number): Uint16Array {
  const far = 3 * 4 * side;
  const d = new Uint16Array(side * side);
  for (let i = 0; i < d.length; i++) d[i] = mask[i] ? far : 0;
  for (let y = 0; y < side; y++)
    for (let x = 0; x < side; x++) {
      const i = y * side + x;
      if (!d[i]) continue;
      let v = d[i];
      if (x > 0) v = Math.min(v, d[i - 1] + 3);
      if (y > 0) {
        v = Math.min(v, d[i - side] + 3);
        if (x > 0) v = Math.min(v, d[i - side - 1] + 4);
        if (x < side - 1) v = Math.min(v, d[i - side + 1] + 4);
      }
      d[i] = v;
    }
  for (let y = side - 1; y >= 0; y--)
    for (let x = side - 1; x >= 0; x--) {
      const i = y * side + x;
      if (!d[i]) continue;
      let v = d[i];
      if (x < side - 1) v = Math.min(v, d[i + 1] + 3);
      if (y < side - 1) {
        v = Math.min(v, d[i + side] + 3);
        if (x < side - 1) v = Math.min(v, d[i + side + 1] + 4);
        if (x > 0) v = Math.min(v, d[i + side - 1] + 4);
      }
      d[i] = v;
    }
  return d;
}

/**
 * The mask parted into leaves: watershed of the distance to the background from its peaks, then two neighbouring
 * parts joined again where they meet across a width of at least `join` of the larger one's peak (one leaf seen as
 * two bumps), and left apart where they meet through a neck (leaves that touch, a stem, a weed hanging on). Returns
 * a part per pixel (0 outside the mask) and each part's pixels.
 */
export function partLeaves(mask: Uint8Array, side: number, dist: Uint16Array, join: number) {
  const n = side * side;
  const label = new Int32Array(n);
  // Seeds: the peaks (no neighbour farther from the background), a plateau of them one seed.
  const peak = new Uint8Array(n);
  for (let y = 0; y < side; y++)
    for (let x = 0; x < side; x++) {
      const i = y * side + x;
      if (!mask[i]) continue;
      let top = true;
      for (let dy = -1; dy <= 1 && top; dy++)
        for (let dx = -1; dx <= 1; dx++) {
          const [nx, ny] = [x + dx, y + dy];
          if (nx >= 0 && ny >= 0 && nx < side && ny < side && dist[ny * side + nx] > dist[i]) {
            top = false;
            break;
          }
        }
      peak[i] = top ? 1 : 0;
    }
  const seeds = regions(side, peak);
  const heights = [0];
  let maxD = 0;
  for (let i = 0; i < n; i++) if (dist[i] > maxD) maxD = dist[i];
  // A queue per distance, from the farthest down: each part floods downhill from its seed.
  const buckets: number[][] = Array.from({ length: maxD + 1 }, () => []);
  seeds.members.forEach((pixels, k) => {
    heights.push(dist[pixels[0]]);
    for (const i of pixels) {
      label[i] = k + 1;
      buckets[dist[i]].push(i);
    }
  });
  const parts = heights.length;
  const saddle = new Map<number, number>();
  const reach = (i: number, j: number, level: number) => {
    if (!mask[j]) return;
    if (!label[j]) {
      label[j] = label[i];
      buckets[Math.min(dist[j], level)].push(j);
    } else if (label[j] !== label[i]) {
      const key = Math.min(label[i], label[j]) * parts + Math.max(label[i], label[j]);
      saddle.set(key, Math.max(saddle.get(key) ?? 0, Math.min(dist[i], dist[j])));
    }
  };
  for (let level = maxD; level >= 0; level--) {
    const bucket = buckets[level];
    while (bucket.length > 0) {
      const i = bucket.pop() as number;
      const x = i % side;
      if (i >= side) reach(i, i - side, level);
      if (i < n - side) reach(i, i + side, level);
      if (x > 0) reach(i, i - 1, level);
      if (x < side - 1) reach(i, i + 1, level);
    }
  }
  // Join across wide contacts, widest first (union–find; a joined part keeps the higher peak).
  const root = Array.from({ length: parts }, (_, k) => k);
  const find = (k: number): number => {
    while (root[k] !== k) {
      root[k] = root[root[k]];
      k = root[k];
    }
    return k;
  };
  for (const [key, s] of [...saddle.entries()].sort((a, b) => b[1] - a[1])) {
    const [a, b] = [find(Math.floor(key / parts)), find(key % parts)];
    if (a === b || s < join * Math.max(heights[a], heights[b])) continue;
    root[b] = a;
    heights[a] = Math.max(heights[a], heights[b]);
  }
  const members = new Map<number, number[]>();
  for (let i = 0; i < n; i++)
    if (label[i]) {
      const k = find(label[i]);
      label[i] = k;
      const list = members.get(k);
      if (list) list.push(i);
      else members.set(k, [i]);
    }
  return { label, parts: [...members.entries()].map(([id, pixels]) => ({ id, pixels, peak: heights[id] })) };
}
