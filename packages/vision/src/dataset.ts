import fs from 'node:fs';
import path from 'node:path';
import type { PreparedItem } from './prepare.ts';

import { CROPS, type Crop } from './browser.ts';
import { CLASSES } from './decide.ts';

export { CLASSES, type RustClass } from './decide.ts';

export const packageRoot = path.resolve(import.meta.dirname, '..');
/** The base training data shipped with the repository (datasets/rust3, see its SOURCES.md). */
export const defaultDatasetDir = path.resolve(packageRoot, '../../datasets/rust3');
/** Committed training negatives for the `not_leaf` class (see negatives/SOURCES.md). */
export const nonLeafDir = path.join(packageRoot, 'negatives');
export const evalSetFile = path.join(packageRoot, 'eval-set.json');

const IMAGE = /\.(jpe?g|png)$/i;

/**
 * Source, crop and setting (field/lab) of a photo from rust3's naming, `<source>__<crop>__<label>__<n>.jpg`;
 * undefined where the name does not say.
 */
export function describeFile(file: string): { source?: string; crop?: string; setting?: string } {
  const parts = path.basename(file).split('__');
  if (parts.length < 3) return {};
  const [source, crop] = parts;
  const setting = source === 'ibean' || source === 'plantdoc' ? 'field' : source === 'plantvillage' ? 'lab' : undefined;
  return { source, crop, setting };
}

/** The crop as the app names it, from the app's or rust3's name ('bean'); undefined when it says none. */
export function toCrop(name: string | undefined): Crop | undefined {
  if (name === 'bean') return 'beans';
  return CROPS.find((c) => c === name);
}

/** Every image under a folder laid out as `<class>/<file>`; source, crop and field/lab from rust3's naming. */
export function listLabelledImages(root: string): PreparedItem[] {
  const items: PreparedItem[] = [];
  for (const label of CLASSES) {
    const dir = path.join(root, label);
    if (!fs.existsSync(dir)) continue;
    for (const name of fs.readdirSync(dir).sort()) {
      if (!IMAGE.test(name)) continue;
      items.push({ file: path.join(dir, name), label, ...describeFile(name) });
    }
  }
  return items;
}

/** Images anywhere under a folder (recursive), for non-leaf photo sets. */
export function listImagesRecursive(root: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(root, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && IMAGE.test(entry.name)) out.push(path.join(entry.parentPath, entry.name));
  }
  return out.sort();
}

/** The fixed evaluation set (relative to a rust3-like folder); never trained on. */
export function loadEvalSet(datasetDir = defaultDatasetDir): PreparedItem[] {
  const spec = JSON.parse(fs.readFileSync(evalSetFile, 'utf8')) as {
    items: { file: string; label: string; source: string; setting: string }[];
  };
  return spec.items.map((i) => ({ ...i, file: path.join(datasetDir, i.file) }));
}
