import fs from 'node:fs';
import { readOnnxHead, withOnnxHead } from '@kutu/vision';

/**
 * Zeroes the head of a KutuLeafNet's model.onnx in place (the backbone and ood statistics stay): every
 * answer is a third per class, so unsure. A model worse than any retrained candidate, which inherits its
 * active model's thresholds but refits the head.
 */
export function blankHead(file: string) {
  const model = fs.readFileSync(file);
  const head = readOnnxHead(model);
  const blank = { ...head, weight: new Float32Array(head.weight.length), bias: new Float32Array(head.bias.length) };
  fs.writeFileSync(file, withOnnxHead(model, blank));
}
