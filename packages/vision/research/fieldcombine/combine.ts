/**
 * Risk and coverage of field rules (decision 0048): photos of one crop, source and class are grouped
 * into random fields of three leaves (fixed seed, many draws), each rule gives the field's answer at the
 * served model's cuts and answer settings (`cardSettings(model.json)`), and the table prints, per crop/source, the share of
 * fields answered confidently and the share of those answers that are wrong, next to one photo.
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
import { CLASSES, type RustClass, type Thresholds } from '../../src/decide.ts';
import { combineShares, type FieldRule, fieldDiagnosis, type RustSeenRule } from '../../src/field.ts';
import { defaultModelDir } from '../../src/index.ts';
import { readCard } from '../../src/classifier.ts';
import { seededRandom } from '../../src/seeded-random.ts';
import { evidence, inputFiles, type Leaf, leafGroups } from './leaves.ts';

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

/** The field's confident class, or null (unsure). `rustSeen` 'off': the sum alone (the rule before decision 0061). */
export function field(
  leaves: Leaf[],
  t: Thresholds,
  rule: FieldRule,
  rustSeen: RustSeenRule = 'off',
): RustClass | null {
  const d = fieldDiagnosis(
    leaves.map(evidence),
    { thresholds: t, answer: { fieldTemper: rule, rustSeen } },
    'research',
  );
  return d.outcome === 'diagnosis' && !d.unsure ? d.rust_class : null;
}

/** The rule before 0048: the first leaf; another only when it is unsure or close, then the mean of shares. */
function asked(leaves: Leaf[], t: Thresholds): RustClass | null {
  for (let n = 1; n <= leaves.length; n++) {
    const d = fieldDiagnosis(
      leaves.slice(0, n).map(evidence),
      { thresholds: t, answer: { fieldTemper: 'mean', rustSeen: 'off' } },
      'research',
    );
    if (d.outcome !== 'diagnosis') return null;
    const [a, b] = combineShares(
      leaves.slice(0, n).map((l) => l.probabilities),
      'mean',
    ).sort((x, y) => y - x);
    if (!d.unsure && a - b >= served.answer.closeMargin) return d.rust_class;
    if (n === leaves.length) return d.unsure ? null : d.rust_class;
  }
  return null;
}

type Rule = { name: string; answer: (leaves: Leaf[], t: Thresholds) => RustClass | null; leaves: number };
const rules: Rule[] = [
  { name: 'one photo', leaves: 1, answer: (l, t) => field(l, t, 'mean') },
  { name: 'asked, then mean (before)', leaves: LEAVES, answer: asked },
  { name: `mean of ${LEAVES}`, leaves: LEAVES, answer: (l, t) => field(l, t, 'mean') },
  ...[0.5, 0.6, 0.7, 0.8, 1.0].map((temper) => ({
    name: `log-sum × ${temper.toFixed(1)}`,
    leaves: LEAVES,
    answer: (l: Leaf[], t: Thresholds) => field(l, t, temper),
  })),
  // Rust on any leaf is said (decision 0061): the served sum, and rust when a leaf shows rust at the cut.
  ...(['confident', 0.8, 0.7, 0.6] as const).map((cut) => ({
    name: `log-sum × 0.6, rust seen ${cut === 'confident' ? 'on a confident leaf' : `at ≥ ${cut}`}`,
    leaves: LEAVES,
    answer: (l: Leaf[], t: Thresholds) => field(l, t, 0.6, cut),
  })),
];

const files = inputFiles(positionals);
const card = await readCard(defaultModelDir());
const served = cardSettings(card);
const t = served.thresholds;
console.log(
  `Served ${card.version}: unsure below ${t.unsureBelow}; ${DRAWS} fields of ${LEAVES} leaves per class, seed ${values.seed}`,
);

for (const file of files) {
  const groups = leafGroups(file, t);
  for (const [key, group] of groups) {
    console.log(`\n${path.basename(file)}: ${key}, ${group.length} leaf photos (no-leaf answers left out)\n`);
    console.log('| rule | fields answered | confidently wrong (of answered) | wrong of all fields |');
    console.log('| --- | --- | --- | --- |');
    for (const rule of rules) {
      const random = seededRandom(Number(values.seed));
      let n = 0;
      let answered = 0;
      let wrong = 0;
      for (const truth of CLASSES) {
        const pool = group.filter((l) => l.truth === truth);
        if (pool.length < rule.leaves) continue;
        for (let d = 0; d < DRAWS; d++) {
          // Distinct leaves of one class: one field's leaves from different plants.
          const picked = new Set<number>();
          while (picked.size < rule.leaves) picked.add(Math.floor(random() * pool.length));
          const answer = rule.answer(
            [...picked].map((i) => pool[i]),
            t,
          );
          n++;
          if (answer !== null) answered++;
          if (answer !== null && answer !== truth) wrong++;
        }
      }
      const pct = (v: number) => `${(v * 100).toFixed(1)} %`;
      console.log(
        `| ${rule.name} | ${pct(answered / n)} | ${pct(answered ? wrong / answered : 0)} | ${pct(wrong / n)} |`,
      );
    }
  }
}
