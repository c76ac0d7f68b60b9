/**
 * The leaf mask and the ringed spots against the main leaf outlined by hand on 50 field photos
 * (research/leaf-outlines, docs/decisions/0081-one-leaf-or-no-rings.md): how much of the ringed area lies on the
 * leaf at each leaf-confidence cut, by source. Used by research/leaf-outlines/measure.ts and the tests.
 */
import fs from 'node:fs';
import path from 'node:path';
import { defaultDatasetDir, packageRoot } from './dataset.ts';
import { decodeRgb } from './preprocess.ts';
import { rustPixels, severityCropOf } from './severity.ts';
import { type RustSpots, spotsOfPixels } from './spots.ts';

export const OUTLINE_SIDE = 160;

export interface OutlinedPhoto {
  file: string;
  source: string;
  crop: 'beans' | 'maize';
  class: string;
  width: number;
  height: number;
  /** Polygons in the photo's own pixels; null where no one leaf is the subject. */
  leaf: [number, number][][] | null;
  /** When it joined the first 50 (and, from 2026-11-29, that it belongs to the report half). */
  added?: string;
}

/**
 * The half a photo belongs to, by a rule fixed before the report half was measured: the 62 outlined up to
 * 2026-11-28 are the tune half (the leaf mask, its cut and the second check were tuned or looked at on them),
 * the 59 outlined on 2026-11-29, in file order, report only.
 */
export const outlineHalf = (p: OutlinedPhoto): 'tune' | 'report' =>
  p.added?.includes('report half') ? 'report' : 'tune';

export const loadOutlines = (file = path.join(packageRoot, 'research/leaf-outlines/outlines.json')): OutlinedPhoto[] =>
  JSON.parse(fs.readFileSync(file, 'utf8')).photos;

/** Whether (x, y) lies inside the polygon (even–odd rule). */
export const inPolygon = (x: number, y: number, poly: [number, number][]) => {
  let inside = false;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const [xi, yi] = poly[i];
    const [xj, yj] = poly[j];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
};

/** The outline on the model's square input (the photo squashed), pixel centres inside any polygon. */
export function outlineOf(p: OutlinedPhoto, side = OUTLINE_SIDE): Uint8Array {
  const truth = new Uint8Array(side * side);
  for (let y = 0; y < side; y++)
    for (let x = 0; x < side; x++) {
      const [px, py] = [((x + 0.5) * p.width) / side, ((y + 0.5) * p.height) / side];
      truth[y * side + x] = p.leaf?.some((poly) => inPolygon(px, py, poly)) ? 1 : 0;
    }
  return truth;
}

/** Pixels inside any ring's box, and how many of them lie on the outline. */
export function ringedOn(spots: RustSpots, truth: Uint8Array) {
  const inside = new Uint8Array(spots.side * spots.side);
  for (const [x0, y0, x1, y1] of spots.boxes)
    for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) inside[y * spots.side + x] = 1;
  let ringPx = 0;
  let onLeafPx = 0;
  for (let i = 0; i < inside.length; i++) {
    ringPx += inside[i];
    onLeafPx += inside[i] & truth[i];
  }
  return { ringPx, onLeafPx };
}

export interface OutlinedReading {
  photo: OutlinedPhoto;
  /** The crop named: the photo's, or null (the maize rules). */
  crop: 'beans' | 'maize' | null;
  /** The leaf's confidence (0 where no leaf was read at all). */
  confidence: number;
  /** The rings with no cut (the served answer draws them where `confidence` reaches the card's cut). */
  spots: RustSpots;
  ringPx: number;
  onLeafPx: number;
  /** Mask against outline; null where there is no mask (or no outline, for the IoU). */
  iou: number | null;
  maskOnLeaf: number | null;
}

/** One photo read as classify() reads it (160 px input), with no cut, against its outline. */
export async function readOutlined(photo: OutlinedPhoto, crop: 'beans' | 'maize' | null): Promise<OutlinedReading> {
  const side = OUTLINE_SIDE;
  const truth = outlineOf(photo);
  const rgb = await decodeRgb(path.join(defaultDatasetDir, photo.file), side);
  const read = rustPixels(rgb, side, severityCropOf(crop), true, 0);
  const spots = read ? spotsOfPixels(read.kind, side) : { side, aspect: 1, boxes: [] };
  const mask = read?.leaf?.mask;
  let [both, either, maskPx] = [0, 0, 0];
  if (mask)
    for (let i = 0; i < mask.length; i++)
      [both, either, maskPx] = [both + (mask[i] & truth[i]), either + (mask[i] | truth[i]), maskPx + mask[i]];
  return {
    photo,
    crop,
    confidence: read?.leaf?.confidence ?? 0,
    spots,
    ...ringedOn(spots, truth),
    iou: mask && photo.leaf ? both / Math.max(1, either) : null,
    maskOnLeaf: mask ? both / Math.max(1, maskPx) : null,
  };
}

/** Every outlined photo with its crop named, and the bean photos with no crop named too. */
export async function readAllOutlined(): Promise<OutlinedReading[]> {
  const readings: OutlinedReading[] = [];
  for (const photo of loadOutlines())
    for (const crop of photo.crop === 'beans' ? (['beans', null] as const) : (['maize'] as const))
      readings.push(await readOutlined(photo, crop));
  return readings;
}

/** Ringed area on the leaf, pooled over the photos the cut lets ring (NaN: nothing ringed). */
export function ringedOnLeaf(readings: OutlinedReading[], cut: number): number {
  const kept = readings.filter((r) => r.confidence >= cut);
  const ringed = kept.reduce((a, r) => a + r.ringPx, 0);
  return ringed ? kept.reduce((a, r) => a + r.onLeafPx, 0) / ringed : Number.NaN;
}

/** The readings by source and crop named ("iBean, beans named", "iBean, no crop named", "PlantDoc, maize named"). */
export function bySource(readings: OutlinedReading[]) {
  const name = (r: OutlinedReading) => `${r.photo.source}, ${r.crop === null ? 'no crop named' : `${r.crop} named`}`;
  return [...new Set(readings.map(name))].map((group) => ({
    name: group,
    named: !group.endsWith('no crop named'),
    readings: readings.filter((r) => name(r) === group),
  }));
}

/** The cuts tried: 0, 0.1, … 1. */
export const LEAF_CUTS = Array.from({ length: 11 }, (_, k) => k / 10);

/** The lowest cut from which every cut up keeps at least `target` of the ringed area on the leaf in each group. */
export function lowestCut(groups: { readings: OutlinedReading[] }[], target: number): number {
  const keeps = (c: number) => groups.every((g) => !(ringedOnLeaf(g.readings, c) < target));
  return LEAF_CUTS.find((c) => LEAF_CUTS.filter((d) => d >= c).every(keeps)) ?? 1;
}
