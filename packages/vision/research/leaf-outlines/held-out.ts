/**
 * The photos a figure of what farmers are shown may be measured on: those the served model never trained on,
 * as its card says (`data.eval_set` in model.json: the repository's fixed evaluation set, which no training
 * reads, base or in-app). By source: iBean, the set's 140 field photos; PlantDoc, none (the served model trained
 * on all 159, `data.plantdoc_holdout`). Every other photo is a training photo and is refused when read.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ModelCard } from '../../src/decide.ts';
import { defaultDatasetDir, packageRoot } from '../../src/dataset.ts';

const repoRoot = path.resolve(packageRoot, '../..');

export interface HeldOut {
  /** The held-out photos of a class folder whose names start with `prefix` (a source), sorted. */
  photos(label: string, prefix: string): string[];
  /** A held-out photo's bytes; a photo the model trained on is refused. */
  read(file: string): Buffer;
}

/** The card's held-out photos under `datasetDir`; a card that names none is refused (nothing may be measured). */
export function heldOutOf(card: ModelCard, datasetDir = defaultDatasetDir): HeldOut {
  const named = (card.data as { eval_set?: unknown } | undefined)?.eval_set;
  if (typeof named !== 'string')
    throw new Error(`Model ${card.version} names no held-out photos (data.eval_set): nothing to measure on`);
  const spec = JSON.parse(fs.readFileSync(path.resolve(repoRoot, named), 'utf8')) as { items: { file: string }[] };
  const held = new Set(spec.items.map((i) => path.resolve(datasetDir, i.file)));
  return {
    photos: (label, prefix) =>
      [...held].filter((f) => path.basename(path.dirname(f)) === label && path.basename(f).startsWith(prefix)).sort(),
    read(file) {
      if (!held.has(path.resolve(file)))
        throw new Error(
          `${path.basename(file)} is not held out from model ${card.version} (${named}): figures are measured on held-out photos only`,
        );
      return fs.readFileSync(file);
    },
  };
}
