"""Pooled features and logits of a KutuNet (weights.pt) for the sets prepare128.ts wrote:
  PYTHONPATH=packages/vision /usr/bin/python3 -m research.calibration.kutunet_features DIR WEIGHTS
"""
import sys

import numpy as np
import torch

from trainer.model import KutuNet
from trainer.train import load_set, normalize

torch.set_num_threads(2)
m = KutuNet()
m.load_state_dict(torch.load(sys.argv[2]))
m.eval()
c = sys.argv[1]
for name in ['leaves', 'nonleaf', 'fixtures_nonleaf']:
    meta, data = load_set(c, name)
    P, L = [], []
    with torch.no_grad():
        for s in range(0, len(data), 128):
            f = m.feature_map(normalize(torch.from_numpy(data[s:s + 128]).permute(0, 3, 1, 2)))
            p = f.mean((2, 3))
            P.append(p.numpy())
            L.append(m.classifier(p).numpy())
    np.save(f'{c}/{name}_pooled.npy', np.concatenate(P))
    np.save(f'{c}/{name}_logits.npy', np.concatenate(L))
    print(name, len(data), flush=True)
