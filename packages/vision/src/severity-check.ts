/**
 * The severity estimate against the pustule masks (docs/decisions/0045): on each masked rusty field photo,
 * the estimated rust share of the leaf beside the mask's (pustule pixels ÷ leaf pixels), their correlation,
 * and how often the two fall in the same band. The masks come from a stricter colour rule checked by eye
 * (test/fixtures/pustule-masks/README.md), so this measures how much the cheap run-time rule loses against
 * it, not agreement with an expert: that is what the expert severity in the review dialog measures.
 */
import path from 'node:path';
import type { AnswerSettings, SeverityCuts } from './card-settings.ts';
import { defaultDatasetDir } from './dataset.ts';
import { loadPustuleMasks, MASK_SIZE, type PustuleMask } from './pointing.ts';
import { decodeRgb } from './preprocess.ts';
import { bandOf, estimateSeverity, SEVERITY_BANDS, type SeverityBand } from './severity.ts';

export interface SeverityPhoto {
  file: string;
  crop: string;
  /** The mask's pustule share of the leaf. */
  truth: number;
  /** The estimate (0 when it found too little leaf). */
  estimate: number;
}

export const maskShare = (m: PustuleMask) =>
  m.pustule.reduce((a, b) => a + b, 0) /
  Math.max(
    1,
    m.leaf.reduce((a, b) => a + b, 0),
  );

function pearson(a: number[], b: number[]) {
  const mean = (v: number[]) => v.reduce((s, x) => s + x, 0) / v.length;
  const ma = mean(a);
  const mb = mean(b);
  let sab = 0;
  let saa = 0;
  let sbb = 0;
  for (let i = 0; i < a.length; i++) {
    sab += (a[i] - ma) * (b[i] - mb);
    saa += (a[i] - ma) ** 2;
    sbb += (b[i] - mb) ** 2;
  }
  return saa > 0 && sbb > 0 ? sab / Math.sqrt(saa * sbb) : 0;
}

const ranks = (v: number[]) => {
  const order = v.map((x, i) => [x, i] as const).sort((p, q) => p[0] - q[0]);
  const r = new Array<number>(v.length);
  order.forEach(([, i], k) => {
    r[i] = k;
  });
  return r;
};

export interface SeverityAgreement {
  photos: number;
  pearson: number;
  spearman: number;
  /** Share of photos whose estimate falls in the mask's band. */
  bandAgreement: number;
  /** confusion[mask band][estimated band] = photos. */
  confusion: Record<SeverityBand, Record<SeverityBand, number>>;
  /** Mean of estimate − mask share. */
  meanBias: number;
}

/** Agreement of the estimate with the masks, bands at the card's cuts (`answer.severityCuts`). */
export function summariseSeverity(photos: SeverityPhoto[], cuts: SeverityCuts): SeverityAgreement {
  const confusion = Object.fromEntries(
    SEVERITY_BANDS.map((t) => [t, Object.fromEntries(SEVERITY_BANDS.map((e) => [e, 0]))]),
  ) as SeverityAgreement['confusion'];
  for (const p of photos) confusion[bandOf(p.truth, cuts)][bandOf(p.estimate, cuts)]++;
  const t = photos.map((p) => p.truth);
  const e = photos.map((p) => p.estimate);
  return {
    photos: photos.length,
    pearson: pearson(t, e),
    spearman: pearson(ranks(t), ranks(e)),
    bandAgreement:
      photos.filter((p) => bandOf(p.truth, cuts) === bandOf(p.estimate, cuts)).length / Math.max(1, photos.length),
    confusion,
    meanBias: photos.reduce((s, p) => s + p.estimate - p.truth, 0) / Math.max(1, photos.length),
  };
}

/**
 * Each masked photo, decoded as the classifier decodes it (160 px squashed), estimated and compared, on the
 * photos whose share is measured at the card's leaf cut (`answer.leafConfidence`; the others say "could not be
 * measured", `unmeasured`).
 */
export async function measureSeverity(
  { severityCuts: cuts, leafConfidence }: Pick<AnswerSettings, 'severityCuts' | 'leafConfidence'>,
  masks = loadPustuleMasks(),
  datasetDir = defaultDatasetDir,
) {
  const photos: SeverityPhoto[] = [];
  const unmeasured: string[] = [];
  for (const m of masks) {
    const rgb = await decodeRgb(path.join(datasetDir, m.file), MASK_SIZE);
    const estimate = estimateSeverity(rgb, MASK_SIZE, m.crop, undefined, leafConfidence)?.share;
    if (estimate === undefined) unmeasured.push(m.file);
    else photos.push({ file: m.file, crop: m.crop, truth: maskShare(m), estimate });
  }
  const crops = [...new Set(photos.map((p) => p.crop))].sort();
  return {
    ...summariseSeverity(photos, cuts),
    unmeasured,
    byCrop: Object.fromEntries(
      crops.map((c) => [
        c,
        summariseSeverity(
          photos.filter((p) => p.crop === c),
          cuts,
        ),
      ]),
    ),
    perPhoto: photos,
  };
}
