"""Out-of-distribution statistics, their cuts, the temperature and the reliability table of a KutuNet on
photos it never trained on (eval set + PlantDoc), as in the v1.1 model card. v1 and v1.1 are retired; get
them back first (packages/vision/models/README.md):
  git checkout models/retired-v1 -- packages/vision/models/v1-20261121 packages/vision/models/v1.1-20261123
  node packages/vision/research/calibration/prepare128.ts DIR && cp packages/vision/eval-set.json DIR/eval.json
  PYTHONPATH=packages/vision /usr/bin/python3 -m research.calibration.kutunet_features DIR \\
    packages/vision/models/v1-20261121/weights.pt
  PYTHONPATH=packages/vision /usr/bin/python3 -m research.calibration.calibrate DIR   # tables; writes DIR/ood.npz
"""
import json
import os
import sys

import numpy as np

from trainer.head import OodScore, fit_temperature, softmax

c = sys.argv[1]
items = json.load(open(f'{c}/leaves.json'))['items']
P = np.load(f'{c}/leaves_pooled.npy')
L = np.load(f'{c}/leaves_logits.npy')
CL = ['common_rust', 'healthy', 'other_disease']
y = np.array([CL.index(i['label']) for i in items])
src = np.array([os.path.basename(i['file']).split('__')[0] for i in items])
ev = {os.path.basename(i['file']) for i in json.load(open(f'{c}/eval.json'))['items']}
in_eval = np.array([os.path.basename(i['file']) in ev for i in items])
trained = ~in_eval & (src != 'plantdoc')
H = in_eval | (src == 'plantdoc')
for k in (32, 64, 128, 256):
    ood = OodScore(P[trained], y[trained], k=k)
    oh = ood(P[H])
    ofx = ood(np.load(f'{c}/fixtures_nonleaf_pooled.npy'))
    oneg = ood(np.load(f'{c}/nonleaf_pooled.npy'))
    for q in (95, 97, 99):
        t = np.percentile(oh, q)
        plantdoc = np.mean(ood(P[src == 'plantdoc']) > t)
        print(f'k={k} q{q} t={t:.2f} heldout-leaf>t {np.mean(oh > t):.3f} plantdoc>t {plantdoc:.3f} '
              f'fixtures>t {np.mean(ofx > t):.3f} negatives>t {np.mean(oneg > t):.3f}')
T = fit_temperature(L[H][:, :3], y[H])
print('T (3-class, held-out)', T)
ood = OodScore(P[trained], y[trained], k=64)
oh = ood(P[H])
print('max held-out', oh.max(), 'p99.5', np.percentile(oh, 99.5))
np.savez(os.path.join(c, 'ood.npz'), P=ood.P, means=ood.means)
p = softmax(L[H])
leaf = p[:, :3] / (1 - p[:, 3:4])
conf = leaf.max(1)
ok = leaf.argmax(1) == y[H]
print('reliability (held-out leaf photos: eval set + PlantDoc; v1 logits, T=1)')
for lo, hi in [(0, .4), (.4, .5), (.5, .6), (.6, .7), (.7, .8), (.8, .9), (.9, .95), (.95, 1.01)]:
    m = (conf >= lo) & (conf < hi)
    mean_conf = conf[m].mean() if m.any() else 0
    acc = ok[m].mean() if m.any() else 0
    print(f'{lo:.2f}-{min(hi, 1):.2f} n={m.sum()} mean_conf={mean_conf:.3f} acc={acc:.3f}')
for name, mask in [('eval', in_eval[H]), ('plantdoc', (src == 'plantdoc')[H]),
                   ('eval-field', (in_eval & (src == 'ibean'))[H])]:
    for cut in (0.5, 0.6, 0.7):
        for t in (1e9, 7.75):
            served = (conf >= cut) & (p[:, 3] <= 0.25) & (p[:, 3] < 0.35) & (oh <= t)
            print(name, 'cut', cut, 'ood', t,
                  'confident&correct', round(float((served & ok)[mask].mean()), 4),
                  'rust recall', round(float((served & ok)[mask & (y[H] == 0)].mean()), 4))
