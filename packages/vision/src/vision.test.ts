import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import * as ort from 'onnxruntime-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  decodeRgb,
  defaultModelDir,
  listImagesRecursive,
  listLabelledImages,
  loadClassifier,
  PYTHON,
  toTensorData,
  trainModel,
  type Classifier,
} from './index.ts';
import { prepareSet } from './prepare.ts';

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
    expect(classifier.card.input_size).toBe(128);
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

  it('gives no confident crop diagnosis for photos that show no leaf', async () => {
    let rejected = 0;
    for (const file of nonLeaf) {
      const d = await classifier.classify(fs.readFileSync(file));
      if (d.outcome === 'not_leaf' || d.unsure) rejected++;
    }
    expect(rejected / nonLeaf.length).toBeGreaterThanOrEqual(0.8);
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

  it('scores the same image identically however it is encoded (PNG vs JPEG of a PNG)', async () => {
    const png = await sharp(fs.readFileSync(leaves[0].file)).png().toBuffer();
    const a = await classifier.classify(png);
    const b = await classifier.classify(png);
    expect(a.probabilities).toEqual(b.probabilities);
  });
});

describe('preprocessing parity between the trainer and the server', () => {
  it('feeds PyTorch and onnxruntime the same tensor and gets the same logits', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kutu-parity-'));
    try {
      const items = leaves.slice(0, 4);
      await prepareSet(dir, 'eval', items, 128);
      const modelDir = defaultModelDir();
      const { stdout } = await run(PYTHON, [
        path.resolve(import.meta.dirname, '../trainer/infer.py'),
        dir,
        path.join(modelDir, 'weights.pt'),
      ]);
      const py = JSON.parse(stdout) as { input_sums: number[]; logits: number[][] };
      const session = await ort.InferenceSession.create(path.join(modelDir, 'model.onnx'));
      for (const [i, item] of items.entries()) {
        const tensor = toTensorData(await decodeRgb(fs.readFileSync(item.file), 128), 128);
        const sum = tensor.reduce((a, b) => a + b, 0);
        expect(Math.abs(sum - py.input_sums[i])).toBeLessThan(0.05);
        const out = await session.run({ input: new ort.Tensor('float32', tensor, [1, 3, 128, 128]) });
        const logits = Array.from(out.logits.data as Float32Array);
        for (const [k, v] of logits.entries()) expect(Math.abs(v - py.logits[i][k])).toBeLessThan(1e-3);
      }
      await session.release();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('training', () => {
  it('trains a tiny model end to end and the result loads and classifies', async () => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'kutu-tiny-'));
    const stages = new Set<string>();
    try {
      const result = await trainModel({
        dataDirs: [path.join(fixtures, 'leaves')],
        evalItems: leaves.slice(0, 3),
        outDir: path.join(out, 'tiny'),
        version: 'tiny-test',
        epochs: 1,
        threads: 1,
        extraTrainerArgs: ['--synthetic', '8', '--nonleaf-repeats', '1', '--batch', '16'],
        onProgress: (p) => stages.add(p.stage),
      });
      expect([...stages]).toEqual(expect.arrayContaining(['prepare', 'train', 'evaluate', 'done']));
      expect(fs.existsSync(path.join(result.modelDir, 'model.onnx'))).toBe(true);
      expect(fs.readdirSync(out)).toEqual(['tiny']);
      expect(result.metrics.images).toBe(3);
      const tiny = await loadClassifier(result.modelDir);
      const d = await tiny.classify(fs.readFileSync(leaves[0].file));
      expect(d.model_version).toBe('tiny-test');
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
  });
});
