import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import * as ort from 'onnxruntime-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  defaultModelDir,
  listImagesRecursive,
  listLabelledImages,
  loadClassifier,
  preprocess,
  PYTHON,
  decide,
  trainModel,
  type Classifier,
  readCard,
  type Thresholds,
} from './index.ts';
import { thresholdsOf } from './decide.ts';
import { prepareSet } from './prepare.ts';
import { pythonModule } from './python.ts';
import { readOnnxHead, withFeatureOutput } from './onnx-edit.ts';

const run = promisify(execFile);
const fixtures = path.resolve(import.meta.dirname, '../test/fixtures');
const leaves = listLabelledImages(path.join(fixtures, 'leaves'));
const nonLeaf = listImagesRecursive(path.join(fixtures, 'nonleaf'));

describe('the committed model', () => {
  let classifier: Classifier;
  beforeAll(async () => {
    classifier = await loadClassifier(defaultModelDir());
  });
  afterAll(() => classifier.close());

  it('has a model card with version, metrics and provenance', () => {
    expect(classifier.version).toMatch(/\S/);
    expect(classifier.card.input_size).toBe(160);
    expect(classifier.card.metrics).toBeDefined();
  });

  it('diagnoses most held-out leaf photos correctly and never calls them "no leaf" confidently wrong', async () => {
    let correct = 0;
    for (const item of leaves) {
      const d = await classifier.classify(fs.readFileSync(item.file));
      expect(d.model_version).toBe(classifier.version);
      if (d.outcome === 'diagnosis' && d.rust_class === item.label) correct++;
    }
    expect(correct / leaves.length).toBeGreaterThanOrEqual(0.75);
  });

  it('gives no confident crop diagnosis for photos that show no leaf, and mostly says "not a leaf"', async () => {
    expect(nonLeaf.length).toBeGreaterThanOrEqual(36);
    const confident: string[] = [];
    let notLeaf = 0;
    for (const file of nonLeaf) {
      const d = await classifier.classify(fs.readFileSync(file));
      if (d.outcome === 'not_leaf') {
        notLeaf++;
        expect(d.rust_class).toBeNull();
      } else if (!d.unsure) confident.push(`${path.basename(file)}: ${d.rust_class}`);
    }
    // 36 photos never trained on; the shipped model gives one of them (a shop sign with words,
    // opencv-doc__scenetext04) a confident diagnosis: 97.2 % without one (MODEL_CARD.md). More is a regression.
    expect(confident.length, confident.join('; ')).toBeLessThanOrEqual(1);
    expect(notLeaf / nonLeaf.length).toBeGreaterThanOrEqual(0.9);
  });

  it('answers "no leaf" for random noise', async () => {
    let seed = 42;
    const noise = Buffer.alloc(320 * 240 * 3);
    for (let i = 0; i < noise.length; i++) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      noise[i] = seed >> 23;
    }
    for (const image of [
      await sharp(noise, { raw: { width: 320, height: 240, channels: 3 } })
        .png()
        .toBuffer(),
      await sharp(noise, { raw: { width: 320, height: 240, channels: 3 } })
        .jpeg()
        .toBuffer(),
    ]) {
      const d = await classifier.classify(image);
      expect(d.outcome).toBe('not_leaf');
      expect(d.rust_class).toBeNull();
    }
  });

  it('answers "no leaf" for blank images of any colour', async () => {
    for (const background of ['#ffffff', '#000000', '#808080', '#3b7d23', '#c8a46e']) {
      const blank = await sharp({ create: { width: 640, height: 480, channels: 3, background } })
        .jpeg()
        .toBuffer();
      const d = await classifier.classify(blank);
      expect(d.outcome, background).toBe('not_leaf');
      expect(d.rust_class).toBeNull();
    }
  });

  it('answers each photo the same alone, after other photos and while others are classified (its working arrays are reused)', async () => {
    const photos = leaves.slice(0, 6).map((item) => fs.readFileSync(item.file));
    const crops = ['beans', 'maize'] as const;
    const alone: unknown[] = [];
    for (const [i, photo] of photos.entries()) {
      // Each photo on a classifier of its own first (its own network input; the reading's arrays are the module's).
      const fresh = await loadClassifier(defaultModelDir());
      alone.push(await fresh.classify(photo, { crop: crops[i % 2] }));
      await fresh.close();
    }
    expect(new Set(alone.map((d) => JSON.stringify(d))).size).toBe(photos.length);
    const inTurn = [];
    for (const [i, photo] of photos.entries()) inTurn.push(await classifier.classify(photo, { crop: crops[i % 2] }));
    const atOnce = await Promise.all(photos.map((photo, i) => classifier.classify(photo, { crop: crops[i % 2] })));
    expect(inTurn).toEqual(alone);
    expect(atOnce).toEqual(alone);
  });

  it('scores the same image identically however it is encoded (PNG vs JPEG of a PNG)', async () => {
    const png = await sharp(fs.readFileSync(leaves[0].file)).png().toBuffer();
    const a = await classifier.classify(png);
    const b = await classifier.classify(png);
    expect(a.probabilities).toEqual(b.probabilities);
  });
});

describe('decide: the honest answer from probabilities and colours', () => {
  const leafy = { plant: 0.8, green: 0.5, contrast: 0.15 };
  const t: Thresholds = {
    notLeaf: 0.35,
    unsureBelow: 0.6,
    unsureNotLeafAbove: 0.25,
    minPlantFraction: 0.02,
    minGreenFraction: 0.005,
    minContrast: 0.02,
    oodUnsureAbove: 4,
    oodNotLeafAbove: 8,
  };
  it('diagnoses a confident leaf', () => {
    const d = decide([0.9, 0.05, 0.04, 0.01], leafy, t, 'v');
    expect(d).toMatchObject({ outcome: 'diagnosis', rust_class: 'common_rust', unsure: false, model_version: 'v' });
    expect(d.confidence).toBeCloseTo(0.9 / 0.99, 5);
    expect(d.probabilities.common_rust + d.probabilities.healthy + d.probabilities.other_disease).toBeCloseTo(1, 6);
  });
  it('marks a split decision unsure but keeps the best guess', () => {
    expect(decide([0.45, 0.4, 0.14, 0.01], leafy, t, 'v')).toMatchObject({ rust_class: 'common_rust', unsure: true });
  });
  it('refuses when the model says "not a leaf"', () => {
    expect(decide([0.2, 0.2, 0.2, 0.4], leafy, t, 'v')).toMatchObject({ outcome: 'not_leaf', rust_class: null });
  });
  it('refuses photos whose colours rule out a leaf, however sure the model is', () => {
    for (const colours of [
      { ...leafy, green: 0.001 }, // an orange cat, a face, a wooden table
      { ...leafy, plant: 0.005 }, // a grey or blue scene
      { ...leafy, contrast: 0.004 }, // blank
    ]) {
      const d = decide([0.97, 0.01, 0.01, 0.01], colours, t, 'v');
      expect(d).toMatchObject({ outcome: 'not_leaf', rust_class: null, unsure: false });
      expect(d.confidence).toBeGreaterThan(0.5);
    }
  });
  it('takes every threshold from the model card (null or, for the ood cuts, absent: off) and refuses a card that lacks one', () => {
    const card = { version: 'v9', thresholds: { ...t, oodUnsureAbove: null, oodNotLeafAbove: null } };
    expect(thresholdsOf(card)).toEqual({ ...t, oodUnsureAbove: Infinity, oodNotLeafAbove: Infinity });
    // The phone drops null values: a model without ood cuts still reads as "off".
    const { oodUnsureAbove: _a, oodNotLeafAbove: _b, ...withoutOod } = t;
    expect(thresholdsOf({ thresholds: withoutOod })).toEqual({
      ...t,
      oodUnsureAbove: Infinity,
      oodNotLeafAbove: Infinity,
    });
    const { unsureBelow: _, ...lacking } = t;
    expect(() => thresholdsOf({ version: 'v9', thresholds: lacking })).toThrow(/v9.*thresholds\.unsureBelow/);
    expect(() => thresholdsOf({ version: 'v9' })).toThrow(/thresholds\.notLeaf/);
  });
  it("the served model answers by its own card's unsure cut", async () => {
    const card = await readCard(defaultModelDir());
    const cut = thresholdsOf(card).unsureBelow;
    const probs = [cut - 0.01, 1 - cut, 0.01, 0];
    expect(decide(probs, leafy, thresholdsOf(card), card.version)).toMatchObject({ unsure: true });
    const above = [cut + 0.005, 0.995 - cut, 0, 0];
    expect(decide(above, leafy, thresholdsOf(card), card.version)).toMatchObject({ unsure: false });
  });
});

describe('preprocessing parity between the trainer and the server', () => {
  it('feeds PyTorch and onnxruntime the same tensor (max abs diff < 1e-5) and gets the same answer', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kutu-parity-'));
    try {
      // Four leaf photos plus two awkward encodings: a PNG with transparency and a JPEG with EXIF rotation.
      const src = fs.readFileSync(leaves[0].file);
      const alphaPng = path.join(dir, 'alpha.png');
      await sharp(src).ensureAlpha(0.5).png().toFile(alphaPng);
      const rotated = path.join(dir, 'rotated.jpg');
      // Pixels stored turned a quarter to the left, EXIF orientation 6 says "turn right to view".
      await sharp(src).rotate(270).jpeg({ quality: 95 }).withMetadata({ orientation: 6 }).toFile(rotated);
      const items = [
        ...leaves.slice(0, 4),
        { file: alphaPng, label: leaves[0].label },
        { file: rotated, label: leaves[0].label },
      ];
      const modelDir = defaultModelDir();
      const { input_size: size } = await readCard(modelDir);
      await prepareSet(dir, 'eval', items, size);
      // The server's tensors, from the exported preprocess(), written for the Python side to compare.
      const tensors: Float32Array[] = [];
      for (const item of items) tensors.push(await preprocess(fs.readFileSync(item.file), size));
      const f32 = path.join(dir, 'server.f32');
      fs.writeFileSync(f32, Buffer.concat(tensors.map((t) => Buffer.from(t.buffer, t.byteOffset, t.byteLength))));
      const infer = pythonModule('trainer.infer', [dir, path.join(modelDir, 'weights.pt'), f32]);
      const { stdout } = await run(PYTHON, infer.args, { env: infer.env });
      const py = JSON.parse(stdout) as { input_sums: number[]; logits: number[][]; max_abs_diff: number };
      expect(py.max_abs_diff).toBeLessThan(1e-5);
      const session = await ort.InferenceSession.create(path.join(modelDir, 'model.onnx'));
      const softmax = (v: number[]) => {
        const e = v.map((x) => Math.exp(x - Math.max(...v)));
        return e.map((x) => x / e.reduce((a, b) => a + b, 0));
      };
      for (const [i, tensor] of tensors.entries()) {
        const out = await session.run({ input: new ort.Tensor('float32', tensor, [1, 3, size, size]) });
        const logits = Array.from(out.logits.data as Float32Array);
        for (const [k, v] of logits.entries()) expect(Math.abs(v - py.logits[i][k])).toBeLessThan(1e-3);
        const [pOnnx, pTorch] = [softmax(logits), softmax(py.logits[i])];
        for (const [k, v] of pOnnx.entries()) expect(Math.abs(v - pTorch[k])).toBeLessThan(1e-4);
        expect(pOnnx.indexOf(Math.max(...pOnnx))).toBe(pTorch.indexOf(Math.max(...pTorch)));
      }
      // The rotated copy is decoded upright: the same pixels as the original.
      const meanDiff = (t: Float32Array) => t.reduce((m, v, k) => m + Math.abs(v - tensors[0][k]), 0) / t.length;
      expect(meanDiff(tensors[5])).toBeLessThan(0.05);
      const unrotated = await preprocess(await sharp(fs.readFileSync(rotated)).jpeg().toBuffer(), size);
      expect(meanDiff(unrotated)).toBeGreaterThan(0.2);
      await session.release();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('training', () => {
  it('trains a tiny model with the leafnet recipe (frozen backbone + head); it loads, classifies and draws heatmaps', async () => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'kutu-tiny-'));
    const stages = new Set<string>();
    try {
      const result = await trainModel({
        dataDirs: [path.join(fixtures, 'leaves')],
        evalItems: leaves.slice(0, 3),
        outDir: path.join(out, 'tiny'),
        version: 'tiny-test',
        arch: 'leafnet',
        epochs: 1,
        threads: 1,
        extraTrainerArgs: ['--synthetic', '4'],
        onProgress: (p) => stages.add(p.stage),
      });
      expect([...stages]).toEqual(expect.arrayContaining(['prepare', 'train', 'export', 'evaluate', 'done']));
      expect(fs.readdirSync(out)).toEqual(['tiny']);
      expect(result.metrics.images).toBe(3);
      const tiny = await loadClassifier(result.modelDir);
      expect(tiny.card.input_size).toBe(224);
      const d = await tiny.classify(fs.readFileSync(leaves[5].file));
      expect(d.model_version).toBe('tiny-test');
      expect(d.ood_score).toEqual(expect.any(Number));
      if (d.outcome === 'diagnosis') expect(d.heatmap_png).toBeInstanceOf(Buffer);
      await tiny.close();
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  });

  it('retrains the head of the served model in Node (no Python) on its own backbone, keeping its input size and thresholds', async () => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'kutu-refit-'));
    const served = defaultModelDir();
    const stages: string[] = [];
    try {
      // No arch: in-app retraining names none, and the recipe follows the model it starts from.
      const result = await trainModel({
        dataDirs: [path.join(fixtures, 'leaves')],
        evalItems: leaves.slice(0, 3),
        outDir: path.join(out, 'refit'),
        version: 'refit-test',
        initFrom: served,
        epochs: 1,
        threads: 1,
        workDir: path.join(out, 'work'),
        onProgress: (p) => stages.at(-1) !== p.stage && stages.push(p.stage),
      });
      expect(stages).toEqual(['prepare', 'train', 'export', 'evaluate', 'done']);
      expect(fs.readdirSync(result.modelDir).sort()).toEqual(['model.json', 'model.onnx']);
      // Work in progress stayed under workDir; only the reusable feature cache is left there.
      expect(fs.readdirSync(path.join(out, 'work'))).toEqual([expect.stringMatching(/^kutu-feature-cache-[0-9a-f]+$/)]);
      const [card, servedCard] = [await readCard(result.modelDir), await readCard(served)];
      expect(card.input_size).toBe(servedCard.input_size);
      expect(card.architecture).toBe(servedCard.architecture);
      expect(card.thresholds).toEqual(servedCard.thresholds);
      expect(card.training).toMatchObject({
        fine_tuned_from: path.basename(served),
        runtime: expect.stringMatching(/^node /),
      });
      // The head changed; the backbone is the served one: the same pooled features for the same photo.
      const [mine, theirs] = [
        fs.readFileSync(path.join(result.modelDir, 'model.onnx')),
        fs.readFileSync(path.join(served, 'model.onnx')),
      ];
      expect(readOnnxHead(mine).weight).not.toEqual(readOnnxHead(theirs).weight);
      const size = card.input_size!;
      const input = new ort.Tensor('float32', await preprocess(fs.readFileSync(leaves[0].file), size), [
        1,
        3,
        size,
        size,
      ]);
      const features = async (model: Buffer) => {
        const session = await ort.InferenceSession.create(Buffer.from(withFeatureOutput(model)));
        const outputs = await session.run({ [session.inputNames[0]]: input });
        await session.release();
        return outputs;
      };
      const [a, b] = [await features(mine), await features(theirs)];
      expect(a.features.dims).toEqual([1, 1280]);
      expect(a.features.data).toEqual(b.features.data);
      expect(a.logits.dims).toEqual([1, 4]);
      // The served model's own logits are its head applied to those features (the edit exposes the right layer).
      const head = readOnnxHead(theirs);
      const f = b.features.data as Float32Array;
      for (let k = 0; k < 4; k++) {
        let z = head.bias[k];
        for (let j = 0; j < 1280; j++) z += head.weight[k * 1280 + j] * f[j];
        expect(z / head.temperature).toBeCloseTo((b.logits.data as Float32Array)[k], 3);
      }
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  });

  it('trains a tiny KutuNet with crop heads (background replacement on); the crop the farmer names picks the head', async () => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'kutu-tiny-'));
    try {
      const result = await trainModel({
        dataDirs: [path.join(fixtures, 'leaves')],
        evalItems: leaves.slice(0, 3),
        outDir: path.join(out, 'tiny'),
        version: 'tiny-kutunet',
        epochs: 1,
        threads: 1,
        // A quick run (--limit): few photos per class and few negatives.
        limitPerClass: 3,
        // --bg-replace 1: every lab photo goes through the background replacement, so that path runs too.
        // --crop-heads: a head per crop beside the general one (not the shipped recipe, see the model card).
        extraTrainerArgs: [
          '--synthetic',
          '8',
          '--nonleaf-repeats',
          '1',
          '--batch',
          '16',
          '--bg-replace',
          '1',
          '--crop-heads',
        ],
      });
      const tiny = await loadClassifier(result.modelDir);
      expect(tiny.card.input_size).toBe(128);
      const photo = fs.readFileSync(leaves[0].file);
      const d = await tiny.classify(photo);
      expect(d.model_version).toBe('tiny-kutunet');
      // Nine photos are too few for out-of-distribution statistics: the tiny model has no such output.
      expect(d.ood_score).toBeNull();

      // The graph answers per crop; classify() reads the head of the crop it is given.
      const session = await ort.InferenceSession.create(path.join(result.modelDir, 'model.onnx'));
      expect(session.outputNames).toEqual(['logits', 'cam', 'logits_maize', 'cam_maize', 'logits_beans', 'cam_beans']);
      const outputs = await session.run({
        [session.inputNames[0]]: new ort.Tensor('float32', await preprocess(photo), [1, 3, 128, 128]),
      });
      await session.release();
      const probabilitiesOf = (name: string) => {
        const logits = [...(outputs[name].data as Float32Array)];
        // decide() reports the three leaf classes' shares of the leaf probability.
        const exp = logits.slice(0, 3).map((v) => Math.exp(v - Math.max(...logits)));
        const sum = exp.reduce((a, b) => a + b, 0);
        return exp.map((v) => v / sum);
      };
      const heads = { maize: 'logits_maize', beans: 'logits_beans', other: 'logits' } as const;
      for (const [crop, head] of Object.entries(heads)) {
        const p = (await tiny.classify(photo, { crop: crop as keyof typeof heads })).probabilities;
        const expected = probabilitiesOf(head);
        expect(
          [p.common_rust, p.healthy, p.other_disease].map((v, i) => v - expected[i]).every((v) => Math.abs(v) < 1e-4),
        ).toBe(true);
      }
      // Trained on different photos, the heads answer differently.
      expect(probabilitiesOf('logits_maize')).not.toEqual(probabilitiesOf('logits_beans'));
      await tiny.close();
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  });

  it('reports a failing trainer with its error and leaves no model directory behind', async () => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'kutu-fail-'));
    try {
      await expect(
        trainModel({
          dataDirs: [path.join(fixtures, 'leaves')],
          evalItems: [],
          outDir: path.join(out, 'broken'),
          version: 'broken',
          epochs: 1,
          initWeights: path.join(out, 'missing-weights.pt'),
        }),
      ).rejects.toThrow(/trainer exited/);
      expect(fs.existsSync(path.join(out, 'broken'))).toBe(false);
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  });
});

describe('model:eval', () => {
  it('prints a report whose last line is the metrics as JSON', async () => {
    const node = process.execPath;
    const { stdout } = await run(node, [
      path.resolve(import.meta.dirname, 'cli/eval.ts'),
      '--data',
      path.join(fixtures, 'leaves'),
      '--nonleaf',
      path.join(fixtures, 'nonleaf'),
    ]);
    const last = JSON.parse(stdout.trim().split('\n').at(-1)!);
    expect(last).toMatchObject({ images: leaves.length, nonleaf_rejected: expect.any(Number) });
    expect(Object.keys(last.per_class)).toEqual(['common_rust', 'healthy', 'other_disease']);
    expect(last.accuracy).toBeGreaterThan(0.5);
    // Without --crop each photo is named by its file's crop.
    expect(Object.keys(last.accuracy_by_crop).sort()).toEqual(['beans', 'maize']);
  });

  it('names one crop with every photo when asked, and refuses a crop it does not know', async () => {
    const cli = [path.resolve(import.meta.dirname, 'cli/eval.ts'), '--data', path.join(fixtures, 'leaves')];
    const { stdout } = await run(process.execPath, [...cli, '--crop', 'beans']);
    expect(JSON.parse(stdout.trim().split('\n').at(-1)!).accuracy_by_crop).toEqual({ beans: expect.any(Number) });
    await expect(run(process.execPath, [...cli, '--crop', 'potato'])).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--crop must be one of maize, beans, other'),
    });
  });
});
