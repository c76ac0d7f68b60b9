"""Trains KutuLeafNet's head (a linear layer on a frozen MobileNetV2) on images prepared by src/prepare.ts.
The backbone is the one of the model given with --init (in-app retraining: the served model's backbone,
fine-tuned on a GPU), else the pretrained one.

Inputs (a cache folder written by src/train.ts): train.json/.f32 and nonleaf.json/.f32, the frozen
backbone's pooled features of every leaf photo (original + mirrored) and every negative (five views),
computed by src/features.ts with onnxruntime from the serving pipeline's sharp decoding.
The head is a weighted logistic regression on them (every source/class cell weighs the same, field sources
count double), then the out-of-distribution statistics are taken from the leaf features. Progress: JSON
lines on stdout.
"""
import argparse
import json
import os
import random
import time
from types import SimpleNamespace

import numpy as np
import torch

from .features import PRETRAINED, backbone_state, extract
from .head import OodScore, fit_linear, sample_weights
from .leafnet import KutuLeafNet, export_onnx
from .model import CLASSES
from .train import MIN_OOD_PHOTOS, emit, note, synthetic_nonleaf
from .validate import DEFAULT_RECIPE, NOT_LEAF, load_features, source_of

# Chosen on by-source validation logits (MODEL_CARD.md, "Calibration").
DEFAULT_TEMPERATURE = 1.0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--cache', required=True)
    ap.add_argument('--out', required=True)
    ap.add_argument('--epochs', type=int, default=1, help='progress steps of the head fit')
    ap.add_argument('--init', help='weights.pt of a KutuLeafNet: its backbone is kept, its head warm-starts')
    ap.add_argument('--size', type=int, default=224, help='input side of the exported model')
    ap.add_argument('--temperature', type=float, default=DEFAULT_TEMPERATURE)
    ap.add_argument('--synthetic', type=int, default=0, help='synthetic non-leaf images (blank, noise, text, …)')
    ap.add_argument('--nonleaf-limit', type=int, help='use only the first N negatives (quick runs)')
    ap.add_argument('--recipe', default='{}', help='JSON overrides of validate.DEFAULT_RECIPE')
    ap.add_argument('--threads', type=int, default=int(os.environ.get('KUTU_TRAIN_THREADS', '2')))
    args, ignored = ap.parse_known_args()
    if ignored:
        note(f'ignored (KutuNet-only options): {" ".join(ignored)}')
    torch.set_num_threads(args.threads)
    torch.manual_seed(0)
    started = time.time()
    os.makedirs(args.out, exist_ok=True)
    recipe = {**DEFAULT_RECIPE, **json.loads(args.recipe)}

    meta, leaf_feats = load_features(args.cache, 'train')
    if meta is None or meta['count'] == 0:
        raise SystemExit('no training images (train.json missing or empty)')
    model = KutuLeafNet()
    backbone = None  # the pretrained one unless --init brings its own
    init = None
    init_ood = None
    if args.init:
        state = torch.load(args.init, map_location='cpu')
        if 'classifier.weight' in state and 'backbone.stem.conv.weight' in state:
            # the features were computed with this backbone (src/train.ts), so the exported model keeps it
            backbone = backbone_state(state)
            init = (state['classifier.weight'].numpy(), state['classifier.bias'].numpy())
            if state['ood_means'].abs().sum() > 0:
                init_ood = SimpleNamespace(P=state['ood_projection'].numpy(), means=state['ood_means'].numpy())
            note(f'warm start from {args.init}')
        else:  # an older architecture (KutuNet): nothing to start from, the head is fitted afresh
            note(f'{args.init} is not a KutuLeafNet: fitting the head afresh')
    model.backbone.load_state_dict(backbone if backbone is not None else torch.load(PRETRAINED, map_location='cpu'))

    emit(stage='train', epoch=0, epochs=args.epochs, samples=meta['count'])
    views = min(recipe['views'], leaf_feats.shape[0])
    X = [leaf_feats[:views].reshape(-1, leaf_feats.shape[-1])]
    labels = [CLASSES.index(i['label']) for i in meta['items']]
    sources = [(i.get('source') or source_of(i)) if i.get('setting') != 'expert' else 'expert' for i in meta['items']]
    y = [np.tile(labels, views)]
    groups = [np.tile(sources, views)]
    _, neg = load_features(args.cache, 'nonleaf')
    if neg is not None and neg.shape[1] > 0:
        neg = neg[:, :args.nonleaf_limit]
        X.append(neg.reshape(-1, neg.shape[-1]))
        y.append(np.full(neg.shape[0] * neg.shape[1], NOT_LEAF))
        groups.append(np.full(neg.shape[0] * neg.shape[1], 'negatives'))
    if args.synthetic:  # plain non-leaf images (blank, noise, text, bricks), through the PyTorch backbone
        rng = random.Random(0)
        synthetic = np.stack([synthetic_nonleaf(rng, args.size) for _ in range(args.synthetic)])
        X.append(extract(model.backbone.eval(), synthetic, ('orig',), log=note, size=args.size)[0])
        y.append(np.full(args.synthetic, NOT_LEAF))
        groups.append(np.full(args.synthetic, 'negatives'))
    X, y, groups = np.concatenate(X), np.concatenate(y), np.concatenate(groups)
    w = sample_weights(y, groups, recipe['field_boost'], ('ibean', 'plantdoc', 'expert'))
    w[groups == 'negatives'] *= recipe['neg_weight']
    W, b = fit_linear(X, y, w, l2=recipe['l2'], init=init)
    leaf = y < NOT_LEAF
    if init_ood is not None and meta['count'] < MIN_OOD_PHOTOS:
        # A few photos cannot say what a typical leaf looks like; the model this continues from measured it on
        # thousands, through this same frozen backbone.
        ood = init_ood
        note(f'{meta["count"]} photos: the ood statistics of {args.init} are kept')
    else:
        ood = OodScore(X[leaf], y[leaf], k=max(1, min(recipe['ood_k'], int(leaf.sum()) - 4)))
    model.set_head(W, b, args.temperature, ood)
    counts = {c: int((y == i).sum()) for i, c in enumerate(CLASSES)}
    emit(stage='train', epoch=args.epochs, epochs=args.epochs, loss=None, seconds=round(time.time() - started, 1))

    emit(stage='export', epoch=args.epochs, epochs=args.epochs)
    model.eval()
    torch.save(model.state_dict(), os.path.join(args.out, 'weights.pt'))
    export_onnx(model, os.path.join(args.out, 'model.onnx'), args.size)
    metrics = {'trainer_eval': None, 'train_counts': counts, 'epochs': args.epochs,
               'seconds': round(time.time() - started, 1), 'init': bool(args.init), 'torch': torch.__version__,
               'recipe': recipe, 'temperature': args.temperature}
    json.dump(metrics, open(os.path.join(args.out, 'train-metrics.json'), 'w'), indent=2)
    emit(stage='done', epoch=args.epochs, epochs=args.epochs, seconds=metrics['seconds'])


if __name__ == '__main__':
    main()
