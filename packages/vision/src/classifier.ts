import fs from 'node:fs/promises';
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import { type Crop, cropHeadsOf, heatFor, outputsFor } from './browser.ts';
import { cardSettings } from './card-settings.ts';
import { colourStats, type DiagnosisCore, decide, type ModelCard, softmax } from './decide.ts';
import type { HeatGrid } from './heat.ts';
import { heatmapPng } from './heatmap.ts';
import { decodeUpright, INPUT_SIZE, toTensorData } from './preprocess.ts';
import { type RustSpots, rustReading } from './spots.ts';

export {
  type ColourStats,
  colourStats,
  type DiagnosisCore,
  decide,
  type ModelCard,
  plantFraction,
  type Thresholds,
} from './decide.ts';

export interface Diagnosis extends DiagnosisCore {
  /**
   * Where the photo drove the diagnosis: a PNG (longer side 224 px, the analysed photo's aspect ratio
   * after EXIF rotation), transparent where cold, yellow to red where hot, to lay over the photo.
   * Null for "not a leaf" answers and for models without a class activation map output.
   */
  heatmap_png: Buffer | null;
  /** The normalised map the PNG is drawn from (cells over the square model input); what pointing is measured on. */
  heat?: HeatGrid | null;
  /**
   * Rust-coloured share of the leaf (0..1, `estimateSeverity`), for any photo with enough leaf; whether it
   * is shown (rust answers only) is the caller's rule. Null when the photo shows too little leaf.
   */
  rust_share?: number | null;
  /** The rust-coloured spots that share counted, to outline on the photo (`rustSpots`); shown like the share. */
  rust_spots?: RustSpots | null;
}

export type { Crop } from './browser.ts';

export interface ClassifyOptions {
  /**
   * What the farmer says the photo shows. A model with crop heads answers from that crop's head (trained on
   * that crop's photos only); without a crop, for 'other', or with an older model the general head answers.
   */
  crop?: Crop | null;
  /**
   * The unsure cut to answer with instead of the card's `thresholds.unsureBelow`: the crop's cut learnt from
   * verified field photos, where the server applies one (docs/decisions/0119).
   */
  unsureBelow?: number;
}

export interface Classifier {
  readonly version: string;
  /** The model directory (model.onnx, model.json, offline.json); absent for stand-ins that load no files. */
  readonly dir?: string;
  readonly card: ModelCard;
  /** The crops this model answers with a head of its own; none (or absent) means one answer for all. */
  readonly cropHeads?: readonly Crop[];
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
  // The card's settings are read (and a bad card refused) when the model loads, not on the first photo.
  const { thresholds, answer } = cardSettings(card);
  const session = await ort.InferenceSession.create(path.join(modelDir, 'model.onnx'), {
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
    graphOptimizationLevel: 'all',
  });
  const inputName = session.inputNames[0];
  const hasCam = session.outputNames.includes('cam');
  const oodName = session.outputNames.includes('ood') ? 'ood' : null;
  const freeInputs: Float32Array[] = [];
  return {
    version: card.version,
    dir: modelDir,
    card,
    cropHeads: cropHeadsOf(session.outputNames),
    async classify(image, options = {}) {
      const outputs = outputsFor(session.outputNames, options.crop);
      const { rgb, width, height } = await decodeUpright(image, size);
      // A tensor's array is the network's until its run ends; then the next photo reuses it (see scratch.ts).
      const data = toTensorData(rgb, size, freeInputs.pop());
      const running = session.run({ [inputName]: new ort.Tensor('float32', data, [1, 3, size, size]) });
      // onnxruntime-node runs the network on this thread in a `setImmediate`, so the reading runs before it.
      const reading = rustReading(rgb, size, options.crop, width / height, answer.leafConfidence);
      const { share: rust_share, spots: rust_spots } = reading;
      const output = await running.finally(() => freeInputs.push(data));
      const probs = softmax(output[outputs.logits].data as Float32Array);
      const ood = oodName ? (output[oodName].data as Float32Array)[0] : null;
      const cuts = options.unsureBelow === undefined ? thresholds : { ...thresholds, unsureBelow: options.unsureBelow };
      const core = decide(probs, colourStats(rgb), cuts, card.version, ood);
      const heat = heatFor(core, hasCam ? output[outputs.cam] : undefined);
      if (!heat) return { ...core, heatmap_png: null, heat: null, rust_share, rust_spots };
      return { ...core, heatmap_png: await heatmapPng(heat, width, height), heat, rust_share, rust_spots };
    },
    close: () => session.release(),
  };
}
