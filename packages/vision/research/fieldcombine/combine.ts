/**
 * Risk and coverage of field rules (decision 0048): photos of one crop, source and class are drawn into random
 * fields of three photos (fixed seed, many draws), every photo, "not a leaf" answers included, and each field is
 * answered as the server answers it (`servedField`: a first photo with no leaf gets no answer and counts as not
 * answered; a later one is refused, so the field is answered from the leaves that joined), at the served
 * model's cuts and answer settings (`cardSettings(model.json)`). Per crop/source the table prints the fields
 * answered confidently and how many of those are wrong, then the advice given: a confident answer's, or the
 * rust advice of a field whose answer is unsure but where rust was seen on a leaf (decision 0061), and how often
 * fields of another class were given the rust advice.
 *
 *   node packages/vision/research/fieldcombine/combine.ts [--draws 3000] [--seed 44] [--leaves 3] [SCORES.json ...]
 *
 * Default inputs: every scores-*.json and oof-*.json beside this file. scores-<version>.json: the served
 * network's outputs on the evaluation set's field photos (`score.ts`); oof-*.json: out-of-fold outputs of
 * fold networks on the photos each fold never trained on (README.md beside this file says where from).
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { cardSettings } from '../../src/card-settings.ts';
import { CLASSES, type Thresholds } from '../../src/decide.ts';
import { combineShares, type FieldRule, fieldDiagnosis, type RustSeenRule } from '../../src/field.ts';
import { defaultModelDir } from '../../src/index.ts';
import { readCard } from '../../src/classifier.ts';
import { seededRandom } from '../../src/seeded-random.ts';
import { evidence, inputFiles, type Leaf, photoGroups } from './leaves.ts';
import { byRule, type FieldAnswerOf, servedField } from './served-field.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    draws: { type: 'string', default: '3000' },
    seed: { type: 'string', default: '44' },
    leaves: { type: 'string', default: '3' },
  },
});
const DRAWS = Number(values.draws);
const LEAVES = Number(values.leaves);

const card = await readCard(defaultModelDir());
const served = cardSettings(card);
const t = served.thresholds;

/** The rule's answer from the leaves that joined; `rustSeen` 'off': the sum alone (the rule before decision 0061). */
const rule = (fieldTemper: FieldRule, rustSeen: RustSeenRule = 'off') =>
  byRule({ thresholds: t, answer: { fieldTemper, rustSeen } });

/** The rule before 0048: the first leaf; another only when it is unsure or close, then the mean of shares. */
const asked: FieldAnswerOf = (leaves) => {
  for (let n = 1; ; n++) {
    const d = fieldDiagnosis(
      leaves.slice(0, n).map(evidence),
      { thresholds: t, answer: { fieldTemper: 'mean', rustSeen: 'off' } },
      'research',
    );
    if (d.outcome !== 'diagnosis' || n === leaves.length) return d;
    const [a, b] = combineShares(
      leaves.slice(0, n).map((l) => l.probabilities),
      'mean',
    ).sort((x, y) => y - x);
    if (!d.unsure && a - b >= served.answer.closeMargin) return d;
  }
};

type Rule = { name: string; answer: FieldAnswerOf; leaves: number };
const { fieldTemper, rustSeen } = served.answer;
const rules: Rule[] = [
  { name: 'one photo', leaves: 1, answer: rule('mean') },
  { name: 'asked, then mean (before)', leaves: LEAVES, answer: asked },
  { name: `mean of ${LEAVES}`, leaves: LEAVES, answer: rule('mean') },
  ...[0.5, 0.6, 0.7, 0.8, 1.0].map((temper) => ({
    name: `log-sum × ${temper.toFixed(1)}`,
    leaves: LEAVES,
    answer: rule(temper),
  })),
  // Rust on any leaf is said (decision 0061): the served sum, and rust when a leaf shows rust at the cut.
  ...(['confident', 0.8, 0.7, 0.6] as const).map((cut) => ({
    name: `log-sum × 0.6, rust seen ${cut === 'confident' ? 'on a confident leaf' : `at ≥ ${cut}`}${cut === rustSeen && fieldTemper === 0.6 ? ' (served)' : ''}`,
    leaves: LEAVES,
    answer: rule(0.6, cut),
  })),
];
console.log(
  `Served ${card.version}: unsure below ${t.unsureBelow}; ${DRAWS} fields of ${LEAVES} photos per class, seed ${values.seed}, formed and answered as the server does`,
);

/** Draws `DRAWS` fields per class of `pool` and counts what the farmers of those fields are told. */
function measure(pool: Leaf[], r: Rule, t: Thresholds) {
  const random = seededRandom(Number(values.seed));
  const c = { n: 0, answered: 0, wrong: 0, advised: 0, wrongAdvice: 0, rustSeen: 0, noAnswer: 0 };
  const rustAdvice = { other_disease: [0, 0, 0], healthy: [0, 0, 0] }; // fields, rust advice, of it unsure
  for (const truth of CLASSES) {
    const photos = pool.filter((l) => l.truth === truth);
    if (photos.length < r.leaves) continue;
    for (let d = 0; d < DRAWS; d++) {
      // Distinct photos of one class, in the order sent: one field's leaves from different plants.
      const picked = new Set<number>();
      while (picked.size < r.leaves) picked.add(Math.floor(random() * photos.length));
      const f = servedField(
        [...picked].map((i) => photos[i]),
        t,
        r.answer,
      );
      const advised = (CLASSES as readonly string[]).includes(f.advice);
      c.n++;
      if (f.confident !== null) c.answered++;
      if (f.confident !== null && f.confident !== truth) c.wrong++;
      if (advised) c.advised++;
      if (advised && f.advice !== truth) c.wrongAdvice++;
      if (f.rustSeenUnsure) c.rustSeen++;
      if (f.leaves === 0) c.noAnswer++;
      if (truth !== 'common_rust') {
        const cell = rustAdvice[truth];
        cell[0]++;
        if (f.advice === 'common_rust') cell[1]++;
        if (f.rustSeenUnsure) cell[2]++;
      }
    }
  }
  return { ...c, rustAdvice };
}

const pct = (v: number, n: number) => (n ? `${((v / n) * 100).toFixed(1)} %` : '–');
const rustCell = ([n, rust, unsure]: number[]) => (n ? `${pct(rust, n)} (${pct(unsure, n)} unsure)` : '–');

const files = inputFiles(positionals);

for (const file of files) {
  for (const [key, group] of photoGroups(file)) {
    const noLeaf = group.filter((l) => servedField([l], t, rule('mean')).leaves === 0).length;
    console.log(
      `\n${path.basename(file)}: ${key}, ${group.length} photos (${noLeaf} answered "not a leaf" alone, kept in the draws)\n`,
    );
    console.log(
      '| rule | fields answered confidently | confidently wrong (of answered) | advice given (confident, or rust seen but unsure) | of all fields: rust seen but unsure | wrong advice (of advice given) | rust advice on fields of another disease (of them unsure) | rust advice on healthy fields (unsure) | no answer: first photo not a leaf |',
    );
    console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- |');
    for (const r of rules) {
      const m = measure(group, r, t);
      console.log(
        `| ${r.name} | ${pct(m.answered, m.n)} | ${pct(m.wrong, m.answered)} | ${pct(m.advised, m.n)} | ${pct(m.rustSeen, m.n)} | ${pct(m.wrongAdvice, m.advised)} | ${rustCell(m.rustAdvice.other_disease)} | ${rustCell(m.rustAdvice.healthy)} | ${pct(m.noAnswer, m.n)} |`,
      );
    }
  }
}
