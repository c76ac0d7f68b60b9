/** What `npm run model:eval` prints about risk and coverage (docs/decisions/0038): per crop at the served cut, and with --curve the table of candidate cuts. */
import type { Thresholds } from '../decide.ts';
import {
  candidateRules,
  meetsTargets,
  RISK_TARGETS,
  type RiskPoint,
  reliability,
  riskCoverage,
  type ScoredPhoto,
} from '../risk.ts';

const pct = (v: number) => `${(v * 100).toFixed(1)}%`;
const cell = (p: RiskPoint) => `${pct(p.coverage)} / ${pct(p.risk)} (${p.wrong}/${p.answered})`;

export function printRiskCoverage(photos: ScoredPhoto[], served: Thresholds, curve: boolean) {
  if (photos.length === 0) return;
  const target = `target: coverage ≥ ${pct(RISK_TARGETS.minCoverage)}, confident wrong ≤ ${pct(RISK_TARGETS.maxRisk)} of answers`;
  console.log(`Risk and coverage at the served cut (${target}; the targets are for field photos of unseen sources):`);
  console.log(
    '  crop/source                   photos  answered  coverage  confident wrong (of answers)  of all photos',
  );
  const byCrop = riskCoverage(photos, served, { name: 'served', thresholds: {} });
  const bySource = riskCoverage(photos, served, { name: 'served', thresholds: {} }, (p) => `${p.crop}/${p.source}`);
  for (const [key, p] of [...Object.entries(byCrop), ...Object.entries(bySource)]) {
    console.log(
      `  ${key.padEnd(28)} ${String(p.photos).padStart(6)}  ${String(p.answered).padStart(8)}  ${pct(p.coverage).padStart(8)}  ${pct(p.risk).padStart(28)}  ${pct(p.wrongOfAll).padStart(13)}  ${meetsTargets(p) ? 'meets' : 'misses'} target`,
    );
  }
  const bins = reliability(photos, served, (p) => `${p.crop}/${p.source}`);
  const edges = Object.values(bins)[0]?.map((b, i, all) => `${b.from}–${all[i + 1]?.from ?? 1}`) ?? [];
  console.log('Reliability: photos at each class share of the best guess, and the share of them right');
  console.log(`  ${'crop/source'.padEnd(28)} ${edges.map((e) => e.padStart(15)).join('')}`);
  for (const [key, row] of Object.entries(bins)) {
    const cells = row.map((b) => (b.photos ? `${b.photos} ${pct(b.right / b.photos)}` : '—').padStart(15));
    console.log(`  ${key.padEnd(28)} ${cells.join('')}`);
  }
  if (!curve) return;
  // The model card's table (Markdown): each cell is coverage / confident wrong of answers (wrong/answered).
  const keys = Object.keys(bySource);
  console.log(`\n| unsure rule | ${keys.join(' | ')} |`);
  console.log(`| --- | ${keys.map(() => '---').join(' | ')} |`);
  for (const rule of candidateRules(served)) {
    const points = riskCoverage(photos, served, rule, (p) => `${p.crop}/${p.source}`);
    console.log(`| ${rule.name} | ${keys.map((k) => cell(points[k])).join(' | ')} |`);
  }
}
