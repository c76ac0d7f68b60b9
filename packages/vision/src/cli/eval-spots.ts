/**
 * The outlined-spots part of `npm run model:eval` (docs/decisions/0054): the spots a confident rust answer
 * outlines, against the pustule masks of the 48 rusty field photos, and how often healthy field photos (the
 * evaluation set's) get any spot, found by colour and shown to the farmer (confident rust answers only).
 * node packages/vision/src/cli/eval-spots.ts prints it alone.
 */
import { answerOf } from '../card-settings.ts';
import { loadClassifier, readCard } from '../classifier.ts';
import { loadEvalSet } from '../dataset.ts';
import { defaultModelDir } from '../index.ts';
import { measureSpots, spotsOnHealthy } from '../spots-check.ts';

const pct = (v: number) => `${(v * 100).toFixed(1)}%`;

export async function reportSpots(modelDir: string) {
  const leafCut = answerOf(await readCard(modelDir)).leafConfidence;
  const r = await measureSpots(leafCut);
  console.log(
    `Outlined rust spots on ${r.photos} masked rusty field photos at the leaf cut ${leafCut} (masks made by a colour rule too, so partly circular):`,
  );
  const line = (name: string, s: Omit<typeof r, 'byCrop'>) =>
    `  ${name.padEnd(6)} ${String(s.photos).padStart(2)} photos (${s.unmeasured} not measured), ${s.spots} spots: on a pustule ${pct(s.onPustule)}, pustule area outlined on the measured ${pct(s.pustuleOutlined)}, measured photos with no spot ${s.noSpot}`;
  console.log(line('all', r));
  for (const [crop, c] of Object.entries(r.byCrop)) console.log(line(crop, c));
  const healthy = loadEvalSet().filter((i) => i.label === 'healthy' && i.setting === 'field');
  const classifier = await loadClassifier(modelDir);
  let h: Awaited<ReturnType<typeof spotsOnHealthy>>;
  try {
    h = await spotsOnHealthy(classifier, healthy);
  } finally {
    await classifier.close();
  }
  console.log(
    `  healthy field photos (evaluation set): ${h.photos}; any spot found by colour ${h.found} (${pct(h.found / Math.max(1, h.photos))}), shown to the farmer (confident rust answer) ${h.shown} (${pct(h.shown / Math.max(1, h.photos))})`,
  );
  return {
    photos: r.photos,
    unmeasured: r.unmeasured,
    spots: r.spots,
    on_pustule: r.onPustule,
    pustule_outlined: r.pustuleOutlined,
    healthy_field: { photos: h.photos, any_spot: h.found, shown: h.shown },
  };
}

if (import.meta.main) await reportSpots(defaultModelDir());
