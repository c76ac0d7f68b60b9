/**
 * The field gate's non-inferiority rule (docs/decisions/0118) against McNemar's "not shown worse" (0086),
 * simulated on one crop's held-back photos: how often each activates a candidate that is equal, or 1, 2
 * or 3 points worse on right answers, when the two models disagree on 3, 6 or 8 % of the photos; and how
 * many photos an equal candidate needs to be activated 4 times in 5. Confident wrong answers are taken
 * as equal with no disagreement (their test then needs 268 photos at least). Seeded; exits non-zero when
 * nothing was measured.
 *
 *   nice node bench/field-gate-margin.ts
 */
import { FIELD_GATE, nonInferiorityP } from '@kutu/vision';
import { mcnemarWorseP } from '../packages/vision/src/field-gate.ts';

let seed = 20261128;
const random = () => {
  seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
  return seed / 2 ** 32;
};

/** Photos good only for the candidate and only for the active model, drawn for one simulated check. */
function draw(photos: number, discordance: number, loss: number): [number, number] {
  const pBetter = (discordance - loss) / 2;
  const pWorse = (discordance + loss) / 2;
  let better = 0;
  let worse = 0;
  for (let i = 0; i < photos; i++) {
    const u = random();
    if (u < pBetter) better++;
    else if (u < pBetter + pWorse) worse++;
  }
  return [better, worse];
}

const { alpha, margin } = FIELD_GATE;
const activates = (photos: number, better: number, worse: number) => ({
  now: nonInferiorityP(better, worse, photos, margin) < alpha && nonInferiorityP(0, 0, photos, margin) < alpha,
  before: photos < FIELD_GATE.minPhotos || mcnemarWorseP(worse, better) >= alpha,
});

const runs = 400;
const sizes = [100, 300, 1000, 2000, 4000, 8000];
const rows: string[] = [];
for (const discordance of [0.03, 0.06, 0.08]) {
  for (const points of [0, 1, 2, 3]) {
    const cells = sizes.map((photos) => {
      let now = 0;
      let before = 0;
      for (let r = 0; r < runs; r++) {
        const [b, w] = draw(photos, Math.max(discordance, points / 100), points / 100);
        const a = activates(photos, b, w);
        if (a.now) now++;
        if (a.before) before++;
      }
      return `${((now / runs) * 100).toFixed(0)} % (${((before / runs) * 100).toFixed(0)} %)`;
    });
    rows.push(`| ${discordance * 100} % | ${points} | ${cells.join(' | ')} |`);
  }
}

/** The fewest photos (in steps of 50) at which an equal candidate is activated in 80 % of runs. */
function photosForEqual(discordance: number): number | null {
  for (let photos = 50; photos <= 20_000; photos += 50) {
    let ok = 0;
    for (let r = 0; r < runs; r++) {
      const [b, w] = draw(photos, discordance, 0);
      if (activates(photos, b, w).now) ok++;
    }
    if (ok / runs >= 0.8) return photos;
  }
  return null;
}

console.log(`margin ${margin * 100} point(s), one-sided ${alpha}, ${runs} runs a cell; activated now (before)`);
console.log(`| disagree | worse by (points) | ${sizes.map((n) => `${n} photos`).join(' | ')} |`);
console.log(`|---|---|${sizes.map(() => '---').join('|')}|`);
for (const r of rows) console.log(r);
const needed = [0.03, 0.06, 0.08].map((d) => [d, photosForEqual(d)] as const);
for (const [d, n] of needed)
  console.log(`equal candidate activated in 80 % of runs from ${n ?? '> 20000'} photos at ${d * 100} % disagreement`);
if (rows.length === 0 || needed.every(([, n]) => n === null)) process.exit(1);
