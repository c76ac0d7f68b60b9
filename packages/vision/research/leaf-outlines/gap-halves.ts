/**
 * The second check's limit on bean rust (`maxGap`, docs/decisions/0120) chosen on one half of the hand-outlined
 * iBean photos and reported on the other: half A is the tune half (outlined up to 2026-11-28, on which the 40 px
 * was set), half B the report half outlined after (`outlineHalf`, leaf-check.ts). For each limit, at the
 * served leaf cut: rings, the ringed area on the outlined leaf, and the photos whose share is shown (≥ 1 %).
 * The limit chosen on a half is the largest (the least rust dropped) that keeps ≥ 90 % of its ringed area (the target of decision 0081) on the leaf.
 *
 *   node packages/vision/research/leaf-outlines/gap-halves.ts
 */
import path from 'node:path';
import { cardSettings } from '../../src/card-settings.ts';
import { readCard } from '../../src/classifier.ts';
import { defaultDatasetDir } from '../../src/dataset.ts';
import { defaultModelDir } from '../../src/index.ts';
import { loadOutlines, OUTLINE_SIDE as S, outlineHalf, outlineOf, ringedOn } from '../../src/leaf-check.ts';
import { decodeRgb } from '../../src/preprocess.ts';
import { MEASURABLE_SHARE, rustPixels, severityOfPixels } from '../../src/severity.ts';
import { spotsOfPixels } from '../../src/spots.ts';

const TARGET = 0.9;
const LIMITS = [10, 20, 40, 80, 160, null] as const;
const cut = cardSettings(await readCard(defaultModelDir())).answer.leafConfidence;
const photos = loadOutlines().filter((p) => p.source === 'iBean');
const halves = [photos.filter((p) => outlineHalf(p) === 'tune'), photos.filter((p) => outlineHalf(p) === 'report')];
const inputs = new Map<string, Uint8Array>();
for (const p of photos) inputs.set(p.file, await decodeRgb(path.join(defaultDatasetDir, p.file), S));

function score(half: typeof photos, limit: number | null) {
  let [rings, ringPx, onLeafPx, shown] = [0, 0, 0, 0];
  for (const p of half) {
    const read = rustPixels(inputs.get(p.file) as Uint8Array, S, 'beans', true, cut, limit);
    if (!read) continue;
    const spots = spotsOfPixels(read.kind, S);
    if (severityOfPixels(read).share >= MEASURABLE_SHARE) shown++;
    const on = ringedOn(spots, outlineOf(p));
    [rings, ringPx, onLeafPx] = [rings + spots.boxes.length, ringPx + on.ringPx, onLeafPx + on.onLeafPx];
  }
  return { rings, onLeaf: ringPx ? onLeafPx / ringPx : Number.NaN, shown };
}

const pct = (v: number) => (Number.isFinite(v) ? `${(100 * v).toFixed(1)} %` : '–');
const name = (l: number | null) => (l === null ? 'none' : `${l} px`);
console.log(
  `iBean outlined photos, beans named, leaf cut ${cut}: half A (tune) ${halves[0].length}, half B (report) ${halves[1].length}\n`,
);
console.log('| limit | half A: rings, on the leaf, shares shown | half B: rings, on the leaf, shares shown |');
console.log('|---|---|---|');
const table = LIMITS.map((l) => ({ l, a: score(halves[0], l), b: score(halves[1], l) }));
for (const { l, a, b } of table)
  console.log(`| ${name(l)} | ${a.rings}, ${pct(a.onLeaf)}, ${a.shown} | ${b.rings}, ${pct(b.onLeaf)}, ${b.shown} |`);
for (const [tune, check] of [
  ['a', 'b'],
  ['b', 'a'],
] as const) {
  const ok = table.filter((r) => r[tune].onLeaf >= TARGET);
  const chosen = ok.length ? ok[ok.length - 1] : null;
  console.log(
    chosen
      ? `\nChosen on half ${tune.toUpperCase()}: ${name(chosen.l)}; on half ${check.toUpperCase()} it keeps ${pct(chosen[check].onLeaf)} of ${chosen[check].rings} rings on the leaf`
      : `\nNo limit keeps ${TARGET * 100} % on half ${tune.toUpperCase()}`,
  );
}
if (photos.length === 0) process.exit(1);
