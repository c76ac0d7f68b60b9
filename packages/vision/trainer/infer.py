"""Prints the normalised input statistics and the PyTorch logits for a prepared `eval` set (parity tests)."""
import json
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(__file__))
from model import KutuNet  # noqa: E402
from train import load_set, normalize  # noqa: E402

cache, weights = sys.argv[1], sys.argv[2]
torch.set_num_threads(1)
meta, data = load_set(cache, 'eval')
model = KutuNet()
model.load_state_dict(torch.load(weights, map_location='cpu'))
model.eval()
x = normalize(torch.from_numpy(data).permute(0, 3, 1, 2))
with torch.no_grad():
    logits = model(x)
print(json.dumps({'input_sums': x.sum(dim=(1, 2, 3)).tolist(), 'logits': logits.tolist()}))
