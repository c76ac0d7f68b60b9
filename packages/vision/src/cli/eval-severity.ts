/**
 * The severity part of `npm run model:eval` (docs/decisions/0045): the colour estimate of the rust share of
 * the leaf against the pustule masks' share, on the same 48 rusty field photos as the pointing figures.
 * Colour only, so it does not depend on the model; it is printed here because the served path runs it.
 * node packages/vision/src/cli/eval-severity.ts prints it alone, with every photo.
 */
import { answerOf } from '../card-settings.ts';
import { readCard } from '../classifier.ts';
import type { ModelCard } from '../decide.ts';
import { defaultModelDir } from '../index.ts';
import { measureSeverity } from '../severity-check.ts';
import { SEVERITY_BANDS } from '../severity.ts';

const pct = (v: number) => `${(v * 100).toFixed(1)}%`;

/** The figures, banded at the card's cuts (`answer.severityCuts`). */
export async function reportSeverity(card: ModelCard, perPhoto = false) {
  const answer = answerOf(card);
  const cuts = answer.severityCuts;
  const r = await measureSeverity(answer);
  console.log(
    `Severity (rust-coloured share of the leaf) on ${r.photos} masked rusty field photos measured at the leaf cut ${answer.leafConfidence} (${r.unmeasured.length} could not be measured); bands low < ${pct(cuts.moderate)} ≤ moderate < ${pct(cuts.severe)} ≤ severe:`,
  );
  const line = (name: string, s: typeof r) =>
    `  ${name.padEnd(6)} ${String(s.photos).padStart(2)} photos: same band ${pct(s.bandAgreement)}, Pearson r ${s.pearson.toFixed(2)}, Spearman ${s.spearman.toFixed(2)}, mean bias ${(s.meanBias * 100).toFixed(1)} points`;
  console.log(line('all', r));
  for (const [crop, c] of Object.entries(r.byCrop))
    console.log(line(crop, { ...c, byCrop: {}, perPhoto: [], unmeasured: [] }));
  console.log(`  bands (rows: mask; columns: estimate ${SEVERITY_BANDS.join(', ')}):`);
  for (const t of SEVERITY_BANDS)
    console.log(`    ${t.padEnd(9)}${SEVERITY_BANDS.map((e) => String(r.confusion[t][e]).padStart(5)).join('')}`);
  if (perPhoto)
    for (const p of r.perPhoto) console.log(`  ${p.file}  mask ${pct(p.truth)}  estimate ${pct(p.estimate)}`);
  return {
    photos: r.photos,
    unmeasured: r.unmeasured.length,
    band_agreement: r.bandAgreement,
    pearson: r.pearson,
    spearman: r.spearman,
    by_crop: Object.fromEntries(
      Object.entries(r.byCrop).map(([c, s]) => [
        c,
        { photos: s.photos, band_agreement: s.bandAgreement, pearson: s.pearson },
      ]),
    ),
  };
}

if (import.meta.main) await reportSeverity(await readCard(defaultModelDir()), true);
