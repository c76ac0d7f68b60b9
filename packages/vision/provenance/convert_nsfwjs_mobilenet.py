"""Converts the MobileNetV2 weights inside the npm package nsfwjs 4.4.0 (MIT, Infinite Red) to a PyTorch
state dict for trainer/mobilenet.py. Done once; the result is committed as pretrained/ (see its README).

  cd $(mktemp -d) && npm pack nsfwjs@4.4.0 && tar xzf nsfwjs-4.4.0.tgz
  node packages/vision/provenance/dump_nsfwjs_weights.cjs $TMP/package/dist/models/mobilenet_v2 $TMP/dump
  PYTHONPATH=packages/vision /usr/bin/python3 -m provenance.convert_nsfwjs_mobilenet $TMP/dump \\
    packages/vision/pretrained/mobilenet_v2_nsfwjs.pt

The TF.js files hold 8-bit quantised weights (value = q·scale + min); the dump dequantises them to float32.
Only the feature extractor (Conv1 … Conv_1_bn) is kept; nsfwjs' own dense head is dropped.
"""
import json
import os
import sys

import numpy as np
import torch

from trainer.mobilenet import MobileNetV2Features, keras_names

dump, out = sys.argv[1], sys.argv[2]
manifest = json.load(open(os.path.join(dump, 'manifest.json')))
flat = np.fromfile(os.path.join(dump, 'weights.f32'), dtype='<f4')
weights, off = {}, 0
for w in manifest:
    n = int(np.prod(w['shape']))
    weights[w['name']] = flat[off:off + n].reshape(w['shape'])
    off += n
assert off == flat.size

model = MobileNetV2Features()
state = model.state_dict()
used = set()
for ours, conv, bnorm in keras_names():
    if f'{conv}/depthwise_kernel' in weights:
        k = weights[f'{conv}/depthwise_kernel']  # kh, kw, c, 1 → c, 1, kh, kw
        state[f'{ours}.conv.weight'] = torch.from_numpy(k.transpose(2, 3, 0, 1).copy())
        used.add(f'{conv}/depthwise_kernel')
    else:
        k = weights[f'{conv}/kernel']  # kh, kw, in, out → out, in, kh, kw
        state[f'{ours}.conv.weight'] = torch.from_numpy(k.transpose(3, 2, 0, 1).copy())
        used.add(f'{conv}/kernel')
    for keras, torch_name in (('gamma', 'weight'), ('beta', 'bias'), ('moving_mean', 'running_mean'),
                              ('moving_variance', 'running_var')):
        state[f'{ours}.bn.{torch_name}'] = torch.from_numpy(weights[f'{bnorm}/{keras}'].copy())
        used.add(f'{bnorm}/{keras}')
model.load_state_dict(state)
left = sorted(set(weights) - used)
print('unused (nsfwjs head):', left)
assert all(name.startswith('dense_') for name in left)
torch.save(model.state_dict(), out)
print('wrote', out, sum(p.numel() for p in model.parameters()), 'parameters')
