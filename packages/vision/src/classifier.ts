import fs from 'node:fs/promises';
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import sharp from 'sharp';
import { CLASSES, colourStats, type DiagnosisCore, decide, type ModelCard, softmax, thresholdsOf } from './decide.ts';
import { heatmapPng, normaliseCam } from './heatmap.ts';
import { decodeRgb, INPUT_SIZE, toTensorData } from './preprocess.ts';

export {
  type ColourStats,
  colourStats,
  DEFAULT_THRESHOLDS,
  type DiagnosisCore,
  decide,
  type ModelCard,
  plantFraction,
  type Thresholds,
  thresholdsOf,
} from './decide.ts';

export interface Diagnosis extends DiagnosisCore {
  /**
   * Where the photo drove the diagnosis: a PNG (longer side 224 px, the analysed photo's aspect ratio
   * after EXIF rotation), transparent where cold, yellow to red where hot, to lay over the photo.
   * Null for "not a leaf" answers and for models without a class activation map output.
   */
  heatmap_png: Buffer | null;
}

/** The crop the farmer says the photo shows. */
export type Crop = 'maize' | 'beans' | 'other';

export interface ClassifyOptions {
  /**
   * Accepted so callers can pass what the farmer said; the model does not use it (one model for both
   * crops; the model card reports accuracy per crop and why a crop-specific rule was not adopted).
   */
  crop?: Crop;
}

export interface Classifier {
  readonly version: string;
  /** The model directory (model.onnx, model.json, offline.json); absent for stand-ins that load no files. */
  readonly dir?: string;
  readonly card: ModelCard;
  classify(image: Buffer, options?: ClassifyOptions): Promise<Diagnosis>;
  close(): Promise<void>;
}

export async function readCard(modelDir: string): Promise<ModelCard> {
  return JSON.parse(await fs.readFile(path.join(modelDir, 'model.json'), 'utf8')) as ModelCard;
}

/** Loads an ONNX model directory (model.onnx + model.json). Inference is asynchronous (native threads). */
export async function loadClassifier(modelDir: string): Promise<Classifier> {
  const card = await readCard(modelDir);
  const size = card.input_size ?? INPUT_SIZE;
  const thresholds = thresholdsOf(card);
  const session = await ort.InferenceSession.create(path.join(modelDir, 'model.onnx'), {
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
    graphOptimizationLevel: 'all',
  });
  const inputName = session.inputNames[0];
  const outputName = session.outputNames[0];
  const camName = session.outputNames.includes('cam') ? 'cam' : null;
  const oodName = session.outputNames.includes('ood') ? 'ood' : null;
  return {
    version: card.version,
    dir: modelDir,
    card,
    async classify(image) {
      const [rgb, meta] = await Promise.all([decodeRgb(image, size), sharp(image).metadata()]);
      const input = new ort.Tensor('float32', toTensorData(rgb, size), [1, 3, size, size]);
      const output = await session.run({ [inputName]: input });
      const probs = softmax(output[outputName].data as Float32Array);
      const ood = oodName ? (output[oodName].data as Float32Array)[0] : null;
      const core = decide(probs, colourStats(rgb), thresholds, card.version, ood);
      if (core.outcome === 'not_leaf' || !camName || !core.rust_class) return { ...core, heatmap_png: null };
      const [, , cellsHigh, cellsWide] = output[camName].dims as number[];
      const heat = normaliseCam(
        output[camName].data as Float32Array,
        CLASSES.indexOf(core.rust_class),
        cellsHigh * cellsWide,
      );
      const { width, height } = meta.autoOrient ?? { width: meta.width ?? size, height: meta.height ?? size };
      const heatmap_png = heat ? await heatmapPng(heat, cellsHigh, cellsWide, width, height) : null;
      return { ...core, heatmap_png };
    },
    close: () => session.release(),
  };
}
