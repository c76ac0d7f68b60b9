"""A network fine-tuned by sweep.py → a model directory the server, the phone and `model:eval` load.

The fine-tuned MobileNetV2 and its linear head become a KutuLeafNet (trainer/leafnet.py: outputs `logits`
with the temperature, `cam` and `ood`). The out-of-distribution statistics are fitted here on the pooled
features of the photos the network trained on (the same split as in sweep.py), through the fine-tuned
backbone. Writes weights.pt, model.onnx and model.json (thresholds given as JSON).

  PYTHONPATH=packages/vision python3 -m recipe.to_served --weights m160long_s42_all.pt --split all \
    --out packages/vision/models/v2-20261124 --version v2-20261124 --temperature 1.0 --thresholds '{...}'
"""
import argparse
import datetime
import glob
import json
import os
import sys

import numpy as np
import torch
from PIL import Image

from trainer.features import backbone_state
from trainer.head import OodScore
from trainer.leafnet import KutuLeafNet, export_onnx

HERE = os.path.dirname(os.path.abspath(__file__))
VISION = os.path.dirname(HERE)

CLASSES = ['common_rust', 'healthy', 'other_disease', 'not_leaf']
MEAN = torch.tensor([0.485, 0.456, 0.406]).view(1, 3, 1, 1)
STD = torch.tensor([0.229, 0.224, 0.225]).view(1, 3, 1, 1)


def training_photos(data, split):
    """The photos sweep.py trained the network of `split` on (leaf photos only)."""
    eval_files = {it['file'] for it in json.load(open(os.path.join(VISION, 'eval-set.json')))['items']}
    out = []
    for ci, c in enumerate(CLASSES[:3]):
        names = sorted(os.path.basename(p) for p in glob.glob(os.path.join(data, c, '*.jpg')))
        plantdoc = [n for n in names if n.startswith('plantdoc__')]
        fold_of = {n: i % 3 for i, n in enumerate(plantdoc)}
        for n in names:
            if f'{c}/{n}' in eval_files:
                continue
            if split == 'lab' and not n.startswith('plantvillage__'):
                continue
            if split.startswith('fold') and fold_of.get(n, -1) == int(split[-1]):
                continue
            out.append((os.path.join(data, c, n), ci))
    return out


@torch.no_grad()
def pooled_features(backbone, files, size):
    feats = []
    for i in range(0, len(files), 64):
        batch = np.stack([np.asarray(Image.open(f).convert('RGB').resize((size, size), Image.LANCZOS))
                          for f in files[i:i + 64]])
        x = ((torch.from_numpy(batch).permute(0, 3, 1, 2).float() / 255 - MEAN) / STD)
        feats.append(backbone(x.contiguous(memory_format=torch.channels_last)).mean(dim=(2, 3)))
        print(f'features {min(i + 64, len(files))}/{len(files)}', file=sys.stderr, flush=True)
    return torch.cat(feats).numpy()


def main():
    p = argparse.ArgumentParser()
    p.add_argument('--weights', required=True, help='a state dict written by sweep.py')
    p.add_argument('--split', required=True, help='the split it was trained on: all, fold0..2 or lab')
    p.add_argument('--out', required=True)
    p.add_argument('--version', required=True)
    p.add_argument('--size', type=int, default=160)
    p.add_argument('--temperature', type=float, default=1.0)
    p.add_argument('--thresholds', default='{}')
    p.add_argument('--data', default='datasets/rust3')
    p.add_argument('--recipe', default='m160long', help='recorded in model.json')
    p.add_argument('--threads', type=int, default=2)
    p.add_argument('--every', type=int, default=1, help='fit the ood statistics on every Nth photo (quicker)')
    args = p.parse_args()
    torch.set_num_threads(args.threads)
    state = torch.load(args.weights, map_location='cpu')
    model = KutuLeafNet()
    model.backbone.load_state_dict(backbone_state(state))
    model.eval()
    photos = training_photos(args.data, args.split)[::args.every]
    X = pooled_features(model.backbone.to(memory_format=torch.channels_last), [f for f, _ in photos], args.size)
    y = np.array([c for _, c in photos])
    ood = OodScore(X, y, k=64)
    model.set_head(state['classifier.weight'].numpy(), state['classifier.bias'].numpy(), args.temperature, ood)
    os.makedirs(args.out, exist_ok=True)
    model = model.to(memory_format=torch.contiguous_format)
    torch.save(model.state_dict(), os.path.join(args.out, 'weights.pt'))
    export_onnx(model, os.path.join(args.out, 'model.onnx'), args.size)
    scores = ood(X)
    now = datetime.datetime.now(datetime.timezone.utc)
    card = {
        'version': args.version,
        'created_at': now.isoformat(timespec='milliseconds').replace('+00:00', 'Z'),
        'architecture': 'KutuLeafNet: MobileNetV2 (width 1.0, 2.2 M parameters) fine-tuned end to end from the '
                        'nsfwjs 4.4.0 weights (MIT, pretrained/README.md) + linear head on the pooled 1280 '
                        'features; outputs logits, class activation maps and an out-of-distribution score',
        'input_size': args.size,
        'preprocessing': f'sharp: EXIF rotate, flatten on white, resize (fill, lanczos3) to {args.size}×{args.size}, '
                         'RGB, ImageNet mean/std',
        'mean': [0.485, 0.456, 0.406],
        'std': [0.229, 0.224, 0.225],
        'classes': CLASSES,
        'thresholds': json.loads(args.thresholds),
        'temperature': args.temperature,
        'training': {
            'recipe': args.recipe,
            'split': args.split,
            'trained_on': 'a GPU with packages/vision/recipe/sweep.py (see MODEL_CARD.md)',
            'counts': {c: int((y == i).sum()) for i, c in enumerate(CLASSES[:3])},
            'ood_fitted_on': f'{len(X)} training photos; their scores: median {np.median(scores):.2f}, '
                             f'99th percentile {np.percentile(scores, 99):.2f}',
            'torch': torch.__version__,
        },
        'data': {'dataset': 'datasets/rust3', 'sources': 'rust3: see datasets/rust3/SOURCES.md',
                 'eval_set': 'packages/vision/eval-set.json'},
    }
    json.dump(card, open(os.path.join(args.out, 'model.json'), 'w'), indent=2, ensure_ascii=False)
    print(json.dumps({'out': args.out, 'photos': len(X), 'ood_median': float(np.median(scores))}))


if __name__ == '__main__':
    main()
