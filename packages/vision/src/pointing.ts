/**
 * Does the heatmap point at the rust? Pustule masks of rusty field photos (test/fixtures/pustule-masks,
 * made by `src/cli/pustule-masks.ts` with the colour rule its README states) against a model's map:
 * (a) the share of photos whose hottest point lies on a pustule, (b) the mean heat on the pustules ÷ the
 * mean heat on the rest of the leaf. docs/decisions/0039.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Classifier } from './classifier.ts';
import { defaultDatasetDir, packageRoot } from './dataset.ts';
import { type HeatGrid, resampleHeat } from './heat.ts';

export const pustuleMasksDir = path.join(packageRoot, 'test/fixtures/pustule-masks');
/** Side of the masks: the squashed photo at the served model's input size (160 px). */
export const MASK_SIZE = 160;
/**
 * A peak counts as on a pustule when a pustule pixel lies within this many mask pixels of it: 8 of 160 is
 * half a cell of a 10×10 map, the same for every map so that coarse maps get no wider target.
 */
export const PEAK_TOLERANCE = 8;
/** The targets of docs/decisions/0039: the peak on a pustule in 80 % of photos, pustule heat 3× the leaf's. */
export const POINTING_TARGETS = { peakOnPustule: 0.8, heatRatio: 3 } as const;

export interface PustuleMask {
  /** The photo, relative to datasets/rust3 (its MANIFEST.csv `file`). */
  file: string;
  crop: 'maize' | 'beans';
  /** 1 on a pustule, MASK_SIZE² row-major. */
  pustule: Uint8Array;
  /** 1 on the leaf (pustules included). */
  leaf: Uint8Array;
}

/** Run lengths of a 0/1 mask, row-major, starting with a run of 0s (maybe empty), as space-separated numbers. */
export function encodeRuns(bits: Uint8Array): string {
  const runs: number[] = [];
  let value = 0;
  let run = 0;
  for (const b of bits) {
    if (b === value) run++;
    else {
      runs.push(run);
      value = b;
      run = 1;
    }
  }
  runs.push(run);
  return runs.join(' ');
}

export function decodeRuns(runs: string, length: number): Uint8Array {
  const bits = new Uint8Array(length);
  let at = 0;
  let value = 0;
  for (const r of runs.split(' ').map(Number)) {
    bits.fill(value, at, at + r);
    at += r;
    value = 1 - value;
  }
  if (at !== length) throw new Error(`mask runs add up to ${at} pixels, not ${length}`);
  return bits;
}

interface MaskFile {
  size: number;
  photos: { file: string; crop: 'maize' | 'beans'; pustule: string; leaf: string }[];
}

export function loadPustuleMasks(dir = pustuleMasksDir): PustuleMask[] {
  const spec = JSON.parse(fs.readFileSync(path.join(dir, 'masks.json'), 'utf8')) as MaskFile;
  const n = spec.size * spec.size;
  return spec.photos.map((p) => ({
    file: p.file,
    crop: p.crop,
    pustule: decodeRuns(p.pustule, n),
    leaf: decodeRuns(p.leaf, n),
  }));
}

export interface PhotoPointing {
  /** The hottest point lies within PEAK_TOLERANCE of a pustule. */
  peakOnPustule: boolean;
  /** Mean heat (0..1, as shown) on the pustules and on the rest of the leaf. */
  heatOnPustules: number;
  heatOnLeaf: number;
}

/** One photo's pointing figures for a normalised map (0..1, cells over the square model input). */
export function pointAt(heat: HeatGrid, mask: PustuleMask): PhotoPointing {
  const size = MASK_SIZE;
  const map = resampleHeat(heat, size, size);
  let peak = 0;
  for (let i = 1; i < map.length; i++) if (map[i] > map[peak]) peak = i;
  const py = Math.floor(peak / size);
  const px = peak % size;
  let peakOnPustule = false;
  for (let y = Math.max(0, py - PEAK_TOLERANCE); y <= Math.min(size - 1, py + PEAK_TOLERANCE) && !peakOnPustule; y++) {
    for (let x = Math.max(0, px - PEAK_TOLERANCE); x <= Math.min(size - 1, px + PEAK_TOLERANCE); x++) {
      if (mask.pustule[y * size + x] && (y - py) ** 2 + (x - px) ** 2 <= PEAK_TOLERANCE ** 2) {
        peakOnPustule = true;
        break;
      }
    }
  }
  let onP = 0;
  let nP = 0;
  let onL = 0;
  let nL = 0;
  for (let i = 0; i < map.length; i++) {
    if (mask.pustule[i]) {
      onP += map[i];
      nP++;
    } else if (mask.leaf[i]) {
      onL += map[i];
      nL++;
    }
  }
  return { peakOnPustule, heatOnPustules: onP / Math.max(nP, 1), heatOnLeaf: onL / Math.max(nL, 1) };
}

export interface PointingReport {
  photos: number;
  /** Photos the model gave no map for (not rust, or a flat map): counted as misses. */
  noMap: number;
  /** (a) Share of photos whose peak lies on a pustule. */
  peakOnPustule: number;
  /** (b) Mean over photos of the heat on pustules ÷ mean over photos of the heat on the rest of the leaf. */
  heatRatio: number;
  byCrop: Record<string, { photos: number; peakOnPustule: number; heatRatio: number }>;
}

export function summarisePointing(results: { crop: string; pointing: PhotoPointing | null }[]): PointingReport {
  const summary = (rs: typeof results) => {
    const withMap = rs.flatMap((r) => (r.pointing ? [r.pointing] : []));
    const mean = (f: (p: PhotoPointing) => number) =>
      withMap.reduce((s, p) => s + f(p), 0) / Math.max(withMap.length, 1);
    const rest = mean((p) => p.heatOnLeaf);
    return {
      photos: rs.length,
      peakOnPustule: withMap.filter((p) => p.peakOnPustule).length / Math.max(rs.length, 1),
      heatRatio: rest > 0 ? mean((p) => p.heatOnPustules) / rest : Number.POSITIVE_INFINITY,
    };
  };
  const crops = [...new Set(results.map((r) => r.crop))].sort();
  return {
    ...summary(results),
    noMap: results.filter((r) => !r.pointing).length,
    byCrop: Object.fromEntries(crops.map((c) => [c, summary(results.filter((r) => r.crop === c))])),
  };
}

/**
 * The pointing figures of a classifier's heatmaps (the map the farmer is shown) on the masked photos, each
 * named with its crop as a farmer would. A photo answered "not a leaf", or with a flat map, counts as a miss.
 */
export async function measurePointing(
  classifier: Classifier,
  masks = loadPustuleMasks(),
  datasetDir = defaultDatasetDir,
): Promise<PointingReport & { perPhoto: { file: string; pointing: PhotoPointing | null }[] }> {
  const perPhoto: { file: string; crop: string; pointing: PhotoPointing | null }[] = [];
  for (const mask of masks) {
    const d = await classifier.classify(fs.readFileSync(path.join(datasetDir, mask.file)), { crop: mask.crop });
    perPhoto.push({ file: mask.file, crop: mask.crop, pointing: d.heat ? pointAt(d.heat, mask) : null });
  }
  return { ...summarisePointing(perPhoto), perPhoto };
}

/** How far a model may fall below its card's recorded figures before `model:eval` fails (about 5 of 48 photos; 0.15×). */
export const POINTING_SLACK = { peakOnPustule: 0.1, heatRatio: 0.15 } as const;

/** What got worse than the card's recorded pointing figures (empty: no regression, or nothing recorded). */
export function pointingRegressions(
  now: Pick<PointingReport, 'peakOnPustule' | 'heatRatio'>,
  recorded: Partial<Pick<PointingReport, 'peakOnPustule' | 'heatRatio'>> | undefined,
): string[] {
  const out: string[] = [];
  if (
    recorded?.peakOnPustule !== undefined &&
    now.peakOnPustule < recorded.peakOnPustule - POINTING_SLACK.peakOnPustule
  )
    out.push(`peak on a pustule ${now.peakOnPustule.toFixed(3)} < recorded ${recorded.peakOnPustule}`);
  if (recorded?.heatRatio !== undefined && now.heatRatio < recorded.heatRatio - POINTING_SLACK.heatRatio)
    out.push(`heat ratio ${now.heatRatio.toFixed(2)} < recorded ${recorded.heatRatio}`);
  return out;
}
