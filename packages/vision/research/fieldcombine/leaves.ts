/**
 * The research photos' scores as leaves (decision 0048): the served network's scores (`scores-*.json`, from
 * `score.ts`) and the fold networks' out-of-fold outputs (`oof-*.json`), read the same way by `combine.ts`
 * and `mixed.ts`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { CLASSES, decide, type RustClass, type Thresholds } from '../../src/decide.ts';

export interface Leaf {
  crop: string;
  source: string;
  truth: RustClass;
  probabilities: Record<RustClass, number>;
  leaf_score: number;
  ood_score: number | null;
  plant_fraction: number;
  green_fraction: number;
  contrast: number;
}

/**
 * An out-of-fold file of the GPU sweep (README.md): `field_maize` photos with the softmax of the four
 * outputs (three classes and "not a leaf"); no ood score and no colour statistics (they pass).
 */
function loadOutOfFold(raw: {
  field_maize: { cls: RustClass; crop: string; source: string; probs: number[] }[];
}): Leaf[] {
  return raw.field_maize.map((p) => {
    const leaf = 1 - p.probs[3];
    return {
      crop: p.crop,
      source: p.source,
      truth: p.cls,
      probabilities: Object.fromEntries(CLASSES.map((c, i) => [c, p.probs[i] / leaf])) as Record<RustClass, number>,
      leaf_score: leaf,
      ood_score: null,
      plant_fraction: 1,
      green_fraction: 1,
      contrast: 1,
    };
  });
}

export function load(file: string): Leaf[] {
  const raw = JSON.parse(readFileSync(file, 'utf8'));
  if (raw.field_maize) return loadOutOfFold(raw);
  const list: Record<string, unknown>[] = raw.photos ?? raw;
  return list.map((p) => {
    const o = (p.output ?? p) as Record<string, unknown>;
    return {
      crop: String(p.crop),
      source: String(p.source),
      truth: p.truth as RustClass,
      probabilities: o.probabilities as Record<RustClass, number>,
      leaf_score: (o.leaf_score as number) ?? 1,
      ood_score: (o.ood_score as number | null) ?? null,
      plant_fraction: (o.plant_fraction as number) ?? 1,
      green_fraction: (o.green_fraction as number) ?? 1,
      contrast: (o.contrast as number) ?? 1,
    };
  });
}

/** What one leaf alone gets: a class, null (unsure), or 'no leaf' (refused; it cannot join a field). */
export function alone(l: Leaf, t: Thresholds) {
  const probs = [...CLASSES.map((c) => l.probabilities[c] * l.leaf_score), 1 - l.leaf_score];
  const colours = { plant: l.plant_fraction, green: l.green_fraction, contrast: l.contrast };
  return decide(probs, colours, t, 'research', l.ood_score);
}

export const evidence = (l: Leaf) => ({
  probabilities: l.probabilities,
  leafScore: l.leaf_score,
  oodScore: l.ood_score,
});

/** Every scores-*.json and oof-*.json beside this file, or the files given. */
export function inputFiles(given: string[]): string[] {
  const here = import.meta.dirname;
  return given.length
    ? given
    : readdirSync(here)
        .filter((f) => /^(scores|oof)-.*\.json$/.test(f))
        .map((f) => path.join(here, f));
}

/** A file's photos by crop/source, "not a leaf" answers included: a field is formed from them as the server forms it (`served-field.ts`). */
export function photoGroups(file: string): Map<string, Leaf[]> {
  const groups = new Map<string, Leaf[]>();
  for (const l of load(file)) {
    const key = `${l.crop}/${l.source}`;
    groups.set(key, [...(groups.get(key) ?? []), l]);
  }
  return groups;
}

/** A file's leaf photos (no-leaf answers left out) by crop/source: `mixed.ts`'s fields, whose leaves are chosen. */
export function leafGroups(file: string, t: Thresholds): Map<string, Leaf[]> {
  const groups = photoGroups(file);
  for (const [key, photos] of groups)
    groups.set(
      key,
      photos.filter((l) => alone(l, t).outcome === 'diagnosis'),
    );
  return groups;
}
