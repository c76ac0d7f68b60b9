"""Pooled features and logits of a KutuNet (weights.pt) for the sets prepare128.ts wrote: kutunet_features.py DIR WEIGHTS"""
import sys, json, numpy as np, torch
sys.path.insert(0, 'packages/vision/trainer')
from model import KutuNet
from train import load_set, normalize
torch.set_num_threads(2)
m = KutuNet(); m.load_state_dict(torch.load(sys.argv[2])); m.eval()
c = sys.argv[1]
for name in ['leaves', 'nonleaf', 'fixtures_nonleaf']:
    meta, data = load_set(c, name)
    P, L = [], []
    with torch.no_grad():
        for s in range(0, len(data), 128):
            f = m.feature_map(normalize(torch.from_numpy(data[s:s+128]).permute(0, 3, 1, 2)))
            p = f.mean((2, 3)); P.append(p.numpy()); L.append(m.classifier(p).numpy())
    np.save(f'{c}/{name}_pooled.npy', np.concatenate(P)); np.save(f'{c}/{name}_logits.npy', np.concatenate(L))
    print(name, len(data), flush=True)
