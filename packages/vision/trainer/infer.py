"""Parity check between the trainer and the server.

  PYTHONPATH=packages/vision python3 -m trainer.infer CACHE WEIGHTS [TS_TENSORS.f32]

Reads the `eval` set that `src/prepare.ts` wrote into CACHE (the server's sharp decoding), normalises it
the way the trainer does, runs the PyTorch weights, and prints one JSON line with the per-image input
sums, the logits and, when the server's own float32 tensors are given (N×3×S×S, little-endian), the
largest absolute difference between the two input tensors.
"""
import json
import sys

import numpy as np
import torch

from .leafnet import KutuLeafNet
from .model import KutuNet
from .train import load_set, normalize

cache, weights = sys.argv[1], sys.argv[2]
torch.set_num_threads(1)
meta, data = load_set(cache, 'eval')
state = torch.load(weights, map_location='cpu')
if 'ood_projection' in state:
    model = KutuLeafNet(ood_dims=state['ood_projection'].shape[1])
    model.load_state_dict(state)
else:
    model = KutuNet.from_weights(weights)
model.eval()
x = normalize(torch.from_numpy(data).permute(0, 3, 1, 2))
with torch.no_grad():
    logits = model(x)
out = {'input_sums': x.sum(dim=(1, 2, 3)).tolist(), 'logits': logits.tolist()}
if len(sys.argv) > 3:
    ts = torch.from_numpy(np.fromfile(sys.argv[3], dtype='<f4').reshape(x.shape))
    out['max_abs_diff'] = float((ts - x).abs().max())
print(json.dumps(out))
