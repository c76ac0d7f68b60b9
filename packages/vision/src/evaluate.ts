import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { CLASSES, describeFile, type RustClass, toCrop } from './dataset.ts';
import { type Classifier, type Crop, loadClassifier } from './classifier.ts';
import type { ScoredPhoto } from './risk.ts';
import { type FieldAnswer, fieldAnswer } from './field-gate.ts';

export interface EvalItem {
  file: string;
  label: string;
  /** 'field' or 'lab'; from rust3's file naming when not given. */
  setting?: string;
  /** The crop the farmer names with the photo ('beans' or rust3's 'bean'); from rust3's file naming when not given. */
  crop?: string;
}

export interface EvalOptions {
  /**
   * The crop named with every photo, leaf or not (a folder of one crop whose file names do not say it).
   * Without it, each leaf photo is named by its file's crop, and a non-leaf photo counts as refused only
   * when it is refused with no crop named and with every crop: a farmer may name any crop with any photo.
   */
  crop?: Crop;
  onItem?: (done: number, total: number) => void;
  /** Each leaf photo's outputs and truth, for re-deciding it under other cuts (risk.ts). */
  onPhoto?: (photo: ScoredPhoto) => void;
}

export interface EvalReport {
  images: number;
  accuracy: number;
  macro_f1: number;
  per_class: Record<RustClass, { precision: number; recall: number }>;
  unsure_rate: number;
  /** Leaf photos that were wrongly answered "no leaf". */
  leaf_rejected_rate: number;
  nonleaf_rejected: number | null;
  /** Share of non-leaf photos answered "not a leaf" (the rest of the rejected ones were "unsure"). */
  nonleaf_not_leaf: number | null;
  /** Non-leaf photos that got a confident crop diagnosis, with the label they got. */
  nonleaf_misses: string[];
  accuracy_by_setting: Record<string, number>;
  /** Accuracy per crop ('maize', 'beans', or 'unknown' where neither the item nor its file name says). */
  accuracy_by_crop: Record<string, number>;
  /** Share of photos answered confidently (neither unsure nor refused), per setting and per crop. */
  coverage_by_setting: Record<string, number>;
  coverage_by_crop: Record<string, number>;
  /** Share of photos given a confident diagnosis of the wrong class, per setting and per crop. */
  confident_wrong_by_setting: Record<string, number>;
  confident_wrong_by_crop: Record<string, number>;
  /** Per `<crop>/<source>` (source from rust3's file names `<source>__<crop>__…`): the same three figures. */
  by_crop_source: Record<string, { images: number; accuracy: number; coverage: number; confident_wrong: number }>;
  confusion: { labels: string[]; matrix: number[][] };
}

const round = (v: number) => Math.round(v * 10000) / 10000;
interface Tally {
  n: number;
  ok: number;
  confident: number;
  wrong: number;
}
const rates = (groups: Record<string, Tally>, of: (t: Tally) => number = (t) => t.ok) =>
  Object.fromEntries(Object.entries(groups).map(([k, v]) => [k, round(of(v) / v.n)]));

/**
 * Scores the served model on labelled leaf photos (and optionally non-leaf photos). A leaf photo counts
 * as correct only when it gets a confident diagnosis of its own class.
 */
export async function evaluateClassifier(
  classifier: Classifier,
  items: EvalItem[],
  nonLeafFiles: string[] = [],
  { crop: namedCrop, onItem, onPhoto }: EvalOptions = {},
): Promise<EvalReport> {
  const labels = [...CLASSES, 'unsure', 'not_leaf'];
  const matrix = CLASSES.map(() => labels.map(() => 0));
  let correct = 0;
  let unsure = 0;
  let rejected = 0;
  const bySetting: Record<string, Tally> = {};
  const byCrop: Record<string, Tally> = {};
  const byCropSource: Record<string, Tally> = {};
  const tally = (groups: Record<string, Tally>, key: string, ok: boolean, confident: boolean) => {
    groups[key] ??= { n: 0, ok: 0, confident: 0, wrong: 0 };
    groups[key].n++;
    if (ok) groups[key].ok++;
    if (confident) groups[key].confident++;
    if (confident && !ok) groups[key].wrong++;
  };
  const total = items.length + nonLeafFiles.length;
  for (const [i, item] of items.entries()) {
    const named = describeFile(item.file);
    const crop = namedCrop ?? toCrop(item.crop ?? named.crop);
    const d = await classifier.classify(await readFile(item.file), { crop });
    const truth = CLASSES.indexOf(item.label as RustClass);
    const predicted = d.outcome === 'not_leaf' ? 'not_leaf' : d.unsure ? 'unsure' : (d.rust_class as string);
    matrix[truth][labels.indexOf(predicted)]++;
    const ok = predicted === item.label;
    if (ok) correct++;
    if (d.outcome === 'not_leaf') rejected++;
    else if (d.unsure) unsure++;
    const confident = d.outcome !== 'not_leaf' && !d.unsure;
    tally(bySetting, item.setting ?? named.setting ?? 'unknown', ok, confident);
    tally(byCrop, crop ?? 'unknown', ok, confident);
    tally(byCropSource, `${crop ?? 'unknown'}/${named.source ?? 'unknown'}`, ok, confident);
    onPhoto?.({
      file: item.file,
      crop: crop ?? 'unknown',
      source: named.source ?? 'unknown',
      truth: item.label as RustClass,
      output: {
        probabilities: d.probabilities,
        leaf_score: d.leaf_score,
        plant_fraction: d.plant_fraction,
        green_fraction: d.green_fraction,
        contrast: d.contrast,
        ood_score: d.ood_score,
        model_version: d.model_version,
      },
    });
    onItem?.(i + 1, total);
  }
  let nonLeafRejected = 0;
  let nonLeafNotLeaf = 0;
  const nonLeafMisses: string[] = [];
  // A model without crop heads answers the same whatever the crop: one answer is enough.
  const namings: (Crop | undefined)[] = namedCrop ? [namedCrop] : [undefined, ...(classifier.cropHeads ?? [])];
  for (const [i, file] of nonLeafFiles.entries()) {
    const image = await readFile(file);
    const answers = [];
    for (const crop of namings) answers.push({ crop, d: await classifier.classify(image, { crop }) });
    const confident = answers.find(({ d }) => d.outcome !== 'not_leaf' && !d.unsure);
    if (!confident) nonLeafRejected++;
    else {
      const { crop, d } = confident;
      nonLeafMisses.push(
        `${basename(file)}${crop ? ` (named ${crop})` : ''}: ${d.rust_class} (${d.confidence.toFixed(2)})`,
      );
    }
    if (answers.every(({ d }) => d.outcome === 'not_leaf')) nonLeafNotLeaf++;
    onItem?.(items.length + i + 1, total);
  }
  const perClass = {} as EvalReport['per_class'];
  const f1s: number[] = [];
  CLASSES.forEach((c, ci) => {
    const tp = matrix[ci][ci];
    const predictedAsC = matrix.reduce((sum, row) => sum + row[ci], 0);
    const actualC = matrix[ci].reduce((a, b) => a + b, 0);
    const precision = predictedAsC ? tp / predictedAsC : 0;
    const recall = actualC ? tp / actualC : 0;
    perClass[c] = { precision: round(precision), recall: round(recall) };
    f1s.push(precision + recall ? (2 * precision * recall) / (precision + recall) : 0);
  });
  const n = items.length || 1;
  return {
    images: items.length,
    accuracy: round(correct / n),
    macro_f1: round(f1s.reduce((a, b) => a + b, 0) / f1s.length),
    per_class: perClass,
    unsure_rate: round(unsure / n),
    leaf_rejected_rate: round(rejected / n),
    nonleaf_rejected: nonLeafFiles.length ? round(nonLeafRejected / nonLeafFiles.length) : null,
    nonleaf_not_leaf: nonLeafFiles.length ? round(nonLeafNotLeaf / nonLeafFiles.length) : null,
    nonleaf_misses: nonLeafMisses,
    accuracy_by_setting: rates(bySetting),
    accuracy_by_crop: rates(byCrop),
    coverage_by_setting: rates(bySetting, (t) => t.confident),
    coverage_by_crop: rates(byCrop, (t) => t.confident),
    confident_wrong_by_setting: rates(bySetting, (t) => t.wrong),
    confident_wrong_by_crop: rates(byCrop, (t) => t.wrong),
    by_crop_source: Object.fromEntries(
      Object.entries(byCropSource)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, t]) => [
          k,
          {
            images: t.n,
            accuracy: round(t.ok / t.n),
            coverage: round(t.confident / t.n),
            confident_wrong: round(t.wrong / t.n),
          },
        ]),
    ),
    confusion: { labels, matrix },
  };
}

export async function evaluateModel(
  modelDir: string,
  items: EvalItem[],
  nonLeafFiles: string[] = [],
  options: EvalOptions = {},
) {
  const classifier = await loadClassifier(modelDir);
  try {
    return await evaluateClassifier(classifier, items, nonLeafFiles, options);
  } finally {
    await classifier.close();
  }
}

/**
 * Each photo's answer against its label (`fieldAnswer`: right, confidently wrong, unsure), by the model in
 * `modelDir`, with the crop its farmer named: what the field gate pairs between two models.
 */
export async function answerPhotos(
  modelDir: string,
  items: { file: string; label: string; crop?: Crop | null }[],
): Promise<FieldAnswer[]> {
  const classifier = await loadClassifier(modelDir);
  try {
    const answers: FieldAnswer[] = [];
    for (const item of items) {
      answers.push(fieldAnswer(await classifier.classify(await readFile(item.file), { crop: item.crop }), item.label));
    }
    return answers;
  } finally {
    await classifier.close();
  }
}
