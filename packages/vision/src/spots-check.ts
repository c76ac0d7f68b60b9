/**
 * The outlined spots against the pustule masks (docs/decisions/0054): on each masked rusty field photo, how
 * many drawn spots fall on a pustule and how much pustule area the spots cover; on healthy field photos, how
 * often any spot would be drawn. The masks come from a stricter colour rule checked by eye
 * (test/fixtures/pustule-masks/README.md), so the agreement is partly circular: it says how much the cheap
 * run-time rule loses against the careful one, not whether an expert would circle the same spots.
 */
import fs from 'node:fs';
import path from 'node:path';
import { answerOf } from './card-settings.ts';
import type { Classifier } from './classifier.ts';
import { defaultDatasetDir } from './dataset.ts';
import { loadPustuleMasks, MASK_SIZE } from './pointing.ts';
import { decodeRgb } from './preprocess.ts';
import { shownSeverity } from './severity.ts';
import { type RustSpots, rustSpots } from './spots.ts';

/** Pixels of the mask grid inside the spots' boxes (boxes scaled from their own side to the mask's). */
function insideSpots(spots: RustSpots, size = MASK_SIZE): Uint8Array {
  const inside = new Uint8Array(size * size);
  const k = size / spots.side;
  for (const [x0, y0, x1, y1] of spots.boxes)
    for (let y = Math.floor(y0 * k); y < Math.ceil(y1 * k); y++)
      for (let x = Math.floor(x0 * k); x < Math.ceil(x1 * k); x++) inside[y * size + x] = 1;
  return inside;
}

export interface SpotsAgreement {
  photos: number;
  /** Spots drawn over all photos. */
  spots: number;
  /** Share of drawn spots whose box holds at least one pustule pixel. */
  onPustule: number;
  /** Pustule pixels inside a drawn box ÷ all pustule pixels (pooled over photos). */
  pustuleOutlined: number;
  /** Photos with no spot drawn at all. */
  noSpot: number;
  /** Photos whose leaf was not found clearly enough to measure (no spots, share "could not be measured"). */
  unmeasured: number;
}

/**
 * Each masked photo decoded as the classifier decodes it (160 px squashed), its spots at the card's leaf cut
 * (`leafCut`, `answer.leafConfidence`) against its mask. The pustule area outlined counts the measured photos only:
 * an unmeasured photo says so instead of ringing anything.
 */
export async function measureSpots(leafCut: number, masks = loadPustuleMasks(), datasetDir = defaultDatasetDir) {
  const tally = () => ({ photos: 0, spots: 0, on: 0, pustule: 0, outlined: 0, noSpot: 0, unmeasured: 0 });
  const all = tally();
  const byCrop: Record<string, ReturnType<typeof tally>> = {};
  for (const m of masks) {
    const rgb = await decodeRgb(path.join(datasetDir, m.file), MASK_SIZE);
    const found = rustSpots(rgb, MASK_SIZE, m.crop, 1, leafCut);
    const spots = found ?? { side: MASK_SIZE, aspect: 1, boxes: [] };
    const inside = insideSpots(spots);
    byCrop[m.crop] ??= tally();
    for (const t of [all, byCrop[m.crop]]) {
      t.photos++;
      if (!found) {
        t.unmeasured++;
        continue;
      }
      t.spots += spots.boxes.length;
      if (spots.boxes.length === 0) t.noSpot++;
      for (const box of spots.boxes) {
        const one = insideSpots({ ...spots, boxes: [box] });
        if (one.some((v, i) => v === 1 && m.pustule[i] === 1)) t.on++;
      }
      for (let i = 0; i < inside.length; i++)
        if (m.pustule[i]) {
          t.pustule++;
          t.outlined += inside[i];
        }
    }
  }
  const summary = (t: ReturnType<typeof tally>): SpotsAgreement => ({
    photos: t.photos,
    spots: t.spots,
    onPustule: t.on / Math.max(1, t.spots),
    pustuleOutlined: t.outlined / Math.max(1, t.pustule),
    noSpot: t.noSpot,
    unmeasured: t.unmeasured,
  });
  return {
    ...summary(all),
    byCrop: Object.fromEntries(Object.entries(byCrop).map(([c, t]) => [c, summary(t)])),
  };
}

/**
 * On photos of healthy leaves: how many have any spot found by colour, and how many would show one to the
 * farmer (only a confident rust answer shows spots, `shownSeverity`), with the classifier as served.
 */
export async function spotsOnHealthy(classifier: Classifier, photos: { file: string; crop?: string }[]) {
  let found = 0;
  let shown = 0;
  for (const p of photos) {
    const crop = p.crop === 'bean' ? 'beans' : p.crop === 'maize' ? 'maize' : null;
    const d = await classifier.classify(fs.readFileSync(p.file), { crop });
    const any = (d.rust_spots?.boxes.length ?? 0) > 0;
    if (any) found++;
    const gate = { outcome: d.outcome, rustClass: d.rust_class, unsure: d.unsure };
    if (any && shownSeverity(gate, d.rust_share, answerOf(classifier.card).severityCuts)) shown++;
  }
  return { photos: photos.length, found, shown };
}
