/**
 * The pointing part of `npm run model:eval` (docs/decisions/0039): the model's heatmaps against the pustule
 * masks of rusty field photos, printed, and checked against the figures its model.json records.
 */
import { loadClassifier, type ModelCard } from '../classifier.ts';
import { measurePointing, PEAK_TOLERANCE, POINTING_TARGETS, pointingRegressions } from '../pointing.ts';

/** What model.json records under metrics.pointing (snake case, like its other metrics). */
interface Recorded {
  peak_on_pustule?: number;
  heat_ratio?: number;
}

export async function reportPointing(modelDir: string, card: ModelCard) {
  const classifier = await loadClassifier(modelDir);
  let r: Awaited<ReturnType<typeof measurePointing>>;
  try {
    r = await measurePointing(classifier);
  } finally {
    await classifier.close();
  }
  const pct = (v: number) => `${(v * 100).toFixed(1)}%`;
  console.log(
    `Heatmap pointing on ${r.photos} rusty field photos with pustule masks (test/fixtures/pustule-masks; ${r.noMap} without a map):`,
  );
  console.log(
    `  peak on a pustule (within ${PEAK_TOLERANCE} of 160 px) ${pct(r.peakOnPustule)} (target ≥ ${pct(POINTING_TARGETS.peakOnPustule)})   heat on pustules ÷ rest of the leaf ${r.heatRatio.toFixed(2)}× (target ≥ ${POINTING_TARGETS.heatRatio}×)`,
  );
  for (const [crop, c] of Object.entries(r.byCrop)) {
    console.log(
      `  ${crop.padEnd(6)} ${c.photos} photos: peak ${pct(c.peakOnPustule)}, ratio ${c.heatRatio.toFixed(2)}×`,
    );
  }
  const recorded = (card.metrics as { pointing?: Recorded } | undefined)?.pointing;
  const regressions = pointingRegressions(
    r,
    recorded && { peakOnPustule: recorded.peak_on_pustule, heatRatio: recorded.heat_ratio },
  );
  if (!recorded) console.log('  (model.json records no pointing figures to compare with)');
  for (const line of regressions) console.log(`  REGRESSION: ${line}`);
  return {
    summary: { photos: r.photos, peakOnPustule: r.peakOnPustule, heatRatio: r.heatRatio, byCrop: r.byCrop },
    regressions,
  };
}
