/**
 * One leaf counts once (decision 0062-one-leaf-counts-once): how well `printLikeness` finds a photo of a leaf
 * already in the answer, and keeps different leaves apart, on the repository's photos (datasets/rust3).
 *
 * For photos drawn at random per source (fixed seed), each photo's print is compared with prints of its own
 * variants (the same photo re-encoded; crops keeping 70 %, 80 % and 90 % of each side at a random place;
 * the mirror image; brightness ×0.6 and ×1.4; each a JPEG at quality 85, as a phone would send it) and with
 * every other drawn photo of the same source and class (different leaves of one source). Prints the true and
 * false match rates at several cuts, and the served cut's.
 *
 *   node packages/vision/research/leafprint/measure.ts [--per-source 30] [--seed 53]
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import sharp, { type Sharp } from 'sharp';
import { printLikeness, SAME_LEAF_AT } from '../../src/leaf-print.ts';
import { photoPrint as printOf } from '../../src/photo-print.ts';
import { seededRandom } from '../../src/seeded-random.ts';

const { values } = parseArgs({
  options: { 'per-source': { type: 'string', default: '30' }, seed: { type: 'string', default: '53' } },
});
const PER = Number(values['per-source']);
const root = path.resolve(import.meta.dirname, '../../../../datasets/rust3');
const rows = readFileSync(path.join(root, 'MANIFEST.csv'), 'utf8')
  .trim()
  .split('\n')
  .slice(1)
  .map((line) => line.split(','))
  .map(([file, cls, source]) => ({ file, cls, source }));
const random = seededRandom(Number(values.seed));

const jpeg = (s: Sharp) => s.jpeg({ quality: 85 }).toBuffer();

async function variants(file: string): Promise<[string, Buffer][]> {
  const img = readFileSync(file);
  const { width = 0, height = 0 } = await sharp(img).metadata();
  const crop = async (keep: number) => {
    const w = Math.round(width * keep);
    const h = Math.round(height * keep);
    const left = Math.floor(random() * (width - w + 1));
    const top = Math.floor(random() * (height - h + 1));
    return jpeg(sharp(img).extract({ left, top, width: w, height: h }));
  };
  return [
    ['same photo', await jpeg(sharp(img))],
    ['crop 90 %', await crop(0.9)],
    ['crop 80 %', await crop(0.8)],
    ['crop 70 %', await crop(0.7)],
    ['mirror', await jpeg(sharp(img).flop())],
    ['brightness ×0.6', await jpeg(sharp(img).linear(0.6, 0))],
    ['brightness ×1.4', await jpeg(sharp(img).linear(1.4, 0))],
  ];
}

const cuts = [0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9];
const same = new Map<string, number[]>();
const apart = new Map<string, number[]>();
const started = Date.now();
let compared = 0;
const drawn: { file: string; cls: string; source: string; print: Uint8Array }[] = [];
for (const source of [...new Set(rows.map((r) => r.source))]) {
  const pool = rows.filter((r) => r.source === source);
  const picked = new Set<number>();
  while (picked.size < Math.min(PER, pool.length)) picked.add(Math.floor(random() * pool.length));
  const photos = [...picked].map((i) => pool[i]);
  const prints = await Promise.all(photos.map((p) => printOf(readFileSync(path.join(root, p.file)))));
  for (const [i, p] of photos.entries()) {
    for (const [kind, buf] of await variants(path.join(root, p.file))) {
      const key = `${source}: ${kind}`;
      same.set(key, [...(same.get(key) ?? []), printLikeness(prints[i], await printOf(buf))]);
      compared++;
    }
    for (let j = i + 1; j < photos.length; j++) {
      if (photos[j].cls !== p.cls) continue;
      apart.set(source, [...(apart.get(source) ?? []), printLikeness(prints[i], prints[j])]);
      compared++;
    }
  }
  drawn.push(...photos.map((p, i) => ({ ...p, print: prints[i] })));
}
// Different leaves of other sources or classes (a farmer's leaves of one field look alike; these should not).
for (const [i, p] of drawn.entries()) {
  for (const q of drawn.slice(i + 1)) {
    if (q.source === p.source && q.cls === p.cls) continue;
    apart.set('other source or class', [
      ...(apart.get('other source or class') ?? []),
      printLikeness(p.print, q.print),
    ]);
    compared++;
  }
}

const rate = (xs: number[], cut: number) => `${((xs.filter((x) => x >= cut).length / xs.length) * 100).toFixed(1)} %`;
const lowest = (xs: number[]) => Math.min(...xs).toFixed(3);
const highest = (xs: number[]) => Math.max(...xs).toFixed(3);
console.log(`${PER} photos per source, seed ${values.seed}; served cut SAME_LEAF_AT = ${SAME_LEAF_AT}\n`);
console.log(`| pairs of one leaf | n | lowest likeness | ${cuts.map((c) => `found at ${c}`).join(' | ')} |`);
console.log(`| --- | --- | --- | ${cuts.map(() => '---').join(' | ')} |`);
for (const [key, xs] of same)
  console.log(`| ${key} | ${xs.length} | ${lowest(xs)} | ${cuts.map((c) => rate(xs, c)).join(' | ')} |`);
const allSame = [...same.values()].flat();
console.log(`| all | ${allSame.length} | ${lowest(allSame)} | ${cuts.map((c) => rate(allSame, c)).join(' | ')} |`);
console.log(
  `\n| different leaves (one source and class) | n | highest likeness | ${cuts.map((c) => `matched at ${c}`).join(' | ')} |`,
);
console.log(`| --- | --- | --- | ${cuts.map(() => '---').join(' | ')} |`);
for (const [key, xs] of apart)
  console.log(`| ${key} | ${xs.length} | ${highest(xs)} | ${cuts.map((c) => rate(xs, c)).join(' | ')} |`);
const allApart = [...apart.values()].flat();
console.log(`| all | ${allApart.length} | ${highest(allApart)} | ${cuts.map((c) => rate(allApart, c)).join(' | ')} |`);
console.log(
  `\n${compared} comparisons in ${((Date.now() - started) / 1000).toFixed(1)} s (${((Date.now() - started) / compared).toFixed(1)} ms each, with decoding)`,
);
