/**
 * Mixed fields and repeated leaves (decision 0061-rust-on-any-leaf): by crop/source,
 *
 * - mixed fields: one leaf of true rust that is a confident rust answer on its own, with two leaves of
 *   another true class (healthy; another disease), drawn at random in random order: how often the field's
 *   answer is confidently healthy or other disease (must be 0), unsure, or says rust;
 * - one leaf three times: the same leaf's outputs summed as three leaves (what the sum does when a farmer
 *   sends one leaf thrice) against one photo, and with the duplicate check (the repeats are refused, so the
 *   answer stays the one photo's).
 *
 *   node packages/vision/research/fieldcombine/mixed.ts [--draws 3000] [--seed 44] [SCORES.json ...]
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { readCard } from '../../src/classifier.ts';
import { cardSettings } from '../../src/card-settings.ts';
import { CLASSES, type RustClass, type Thresholds } from '../../src/decide.ts';
import { fieldDiagnosis, type RustSeenRule } from '../../src/field.ts';
import { defaultModelDir } from '../../src/index.ts';
import { seededRandom } from '../../src/seeded-random.ts';
import { alone, evidence, inputFiles, type Leaf, leafGroups } from './leaves.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { draws: { type: 'string', default: '3000' }, seed: { type: 'string', default: '44' } },
});
const DRAWS = Number(values.draws);
const pct = (v: number, n: number) => (n ? `${((v / n) * 100).toFixed(1)} %` : '–');

const card = await readCard(defaultModelDir());
const served = cardSettings(card);
const t = served.thresholds;
console.log(`Served ${card.version}: unsure below ${t.unsureBelow}; ${DRAWS} draws per cell, seed ${values.seed}`);

function answerOf(leaves: Leaf[], t: Thresholds, rustSeen: RustSeenRule) {
  const d = fieldDiagnosis(
    leaves.map(evidence),
    { thresholds: t, answer: { fieldTemper: served.answer.fieldTemper, rustSeen } },
    'research',
  );
  if (d.outcome !== 'diagnosis') return 'no leaf';
  if (d.rust_leaves > 0 && d.rust_class === 'common_rust') return d.unsure ? 'rust seen' : 'rust';
  return d.unsure ? 'unsure' : (d.rust_class as RustClass);
}

const sureRust = (l: Leaf) => {
  const d = alone(l, t);
  return d.outcome === 'diagnosis' && !d.unsure && d.rust_class === 'common_rust';
};

console.log('\n## Mixed fields: one confident rust leaf and two of another class\n');
console.log(
  '| set | other two | rule | confidently healthy or other | says rust (sure / rust seen) | unsure, no rust said |',
);
console.log('| --- | --- | --- | --- | --- | --- |');
const files = inputFiles(positionals);
for (const file of files) {
  for (const [key, group] of leafGroups(file, t)) {
    const rusty = group.filter((l) => l.truth === 'common_rust' && sureRust(l));
    for (const other of ['healthy', 'other_disease'] as const) {
      const pool = group.filter((l) => l.truth === other);
      if (pool.length < 2 || rusty.length === 0) continue;
      for (const rule of ['off', 'confident'] as const) {
        const random = seededRandom(Number(values.seed));
        const counts = new Map<string, number>();
        for (let d = 0; d < DRAWS; d++) {
          const picked = new Set<number>();
          while (picked.size < 2) picked.add(Math.floor(random() * pool.length));
          const leaves = [...picked].map((i) => pool[i]);
          leaves.splice(Math.floor(random() * 3), 0, rusty[Math.floor(random() * rusty.length)]);
          const a = answerOf(leaves, t, rule);
          counts.set(a, (counts.get(a) ?? 0) + 1);
        }
        const c = (k: string) => counts.get(k) ?? 0;
        console.log(
          `| ${path.basename(file)} ${key} (${rusty.length} sure rust leaves) | ${other} | ${rule === 'off' ? 'sum only (before)' : 'rust seen on a confident leaf'} | ${pct(c('healthy') + c('other_disease'), DRAWS)} | ${pct(c('rust'), DRAWS)} / ${pct(c('rust seen'), DRAWS)} | ${pct(c('unsure'), DRAWS)} |`,
        );
      }
    }
  }
}

console.log('\n## One leaf three times (every leaf photo, each class)\n');
console.log('| set | answer | answered | confidently wrong (of answered) |');
console.log('| --- | --- | --- | --- |');
for (const file of files) {
  for (const [key, group] of leafGroups(file, t)) {
    const rows: [string, (l: Leaf) => Leaf[]][] = [
      ['one photo', (l) => [l]],
      ['the same leaf summed three times (no check)', (l) => [l, l, l]],
      ['three shots, repeats refused (duplicate check)', (l) => [l]],
    ];
    for (const [name, fieldOf] of rows) {
      let answered = 0;
      let wrong = 0;
      for (const l of group) {
        const a = answerOf(fieldOf(l), t, 'confident');
        if (!CLASSES.includes(a as RustClass) && a !== 'rust') continue;
        answered++;
        if ((a === 'rust' ? 'common_rust' : a) !== l.truth) wrong++;
      }
      console.log(
        `| ${path.basename(file)} ${key} (${group.length}) | ${name} | ${pct(answered, group.length)} | ${pct(wrong, answered)} |`,
      );
    }
  }
}
