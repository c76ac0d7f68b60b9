"""Trains KutuNet on images prepared by `packages/vision/src/prepare.ts` and exports ONNX.

Inputs (a cache folder written by the Node side with the same sharp preprocessing the server uses):
  train.json/.bin    leaf photos at TRAIN_SIZE (random crops are taken from these)
  nonleaf.json/.bin  photos that show no leaf (optional), at a larger size
  eval.json/.bin     the fixed evaluation set at exactly the served input size (never trained on)
Progress goes to stdout as one JSON object per line; human-readable notes go to stderr.
"""
import argparse
import json
import os
import random
import sys
import time

import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset
from torchvision import transforms as T

from .export import export_onnx
from .head import OodScore
from .model import CLASSES, CROPS, KutuNet, crop_of
from .parent_watch import exit_with_parent

INPUT_SIZE = 128
MEAN = torch.tensor([0.485, 0.456, 0.406]).view(3, 1, 1)
STD = torch.tensor([0.229, 0.224, 0.225]).view(3, 1, 1)
NOT_LEAF = CLASSES.index('not_leaf')
MIN_OOD_PHOTOS = 500


def emit(**event):
    print(json.dumps(event), flush=True)


def note(*args):
    print(*args, file=sys.stderr, flush=True)


def load_set(cache, name):
    meta_path = os.path.join(cache, f'{name}.json')
    if not os.path.exists(meta_path):
        return None
    meta = json.load(open(meta_path))
    s = meta['size']
    data = np.fromfile(os.path.join(cache, f'{name}.bin'), dtype=np.uint8)
    data = data.reshape(meta['count'], s, s, 3)
    return meta, data


def normalize(chw_uint8):
    return (chw_uint8.float() / 255.0 - MEAN) / STD


def synthetic_nonleaf(rng, size=160):
    """Images that are plainly not a leaf: blank, gradients, noise, walls, documents, patterns."""
    kind = rng.randrange(7)
    c1 = np.array([rng.randrange(256) for _ in range(3)], dtype=np.float32)
    c2 = np.array([rng.randrange(256) for _ in range(3)], dtype=np.float32)
    if kind == 0:  # blank or nearly blank
        img = np.ones((size, size, 3), np.float32) * c1 + np.random.normal(0, rng.uniform(0, 6), (size, size, 3))
    elif kind == 1:  # gradient
        t = np.linspace(0, 1, size, dtype=np.float32)
        g = t[None, :, None] if rng.random() < 0.5 else t[:, None, None]
        img = c1 * (1 - g) + c2 * g + np.zeros((size, size, 3), np.float32)
    elif kind == 2:  # coloured noise
        img = np.random.uniform(0, 255, (size, size, 3)).astype(np.float32)
    elif kind == 3:  # plaster or concrete wall: low-saturation smooth texture
        base = np.random.normal(0, 1, (size // 8, size // 8)).astype(np.float32)
        tex = np.kron(base, np.ones((8, 8), np.float32))
        grey = c1.mean()
        img = np.stack([tex] * 3, -1) * rng.uniform(5, 25) + grey + np.random.normal(0, 4, (size, size, 3))
    elif kind == 4:  # document: light paper with dark text lines
        paper = rng.uniform(215, 255)
        img = np.ones((size, size, 3), np.float32) * paper
        y = rng.randrange(4, 14)
        while y < size - 6:
            x = rng.randrange(4, 16)
            while x < size - 10:
                w = rng.randrange(4, 22)
                img[y:y + rng.randrange(3, 6), x:x + w] = rng.uniform(0, 70)
                x += w + rng.randrange(2, 6)
            y += rng.randrange(8, 14)
    elif kind == 5:  # stripes and checkerboards
        period = rng.randrange(6, 40)
        yy, xx = np.mgrid[0:size, 0:size]
        mask = ((xx // period + (yy // period if rng.random() < 0.5 else 0)) % 2).astype(np.float32)[..., None]
        img = c1 * mask + c2 * (1 - mask)
    else:  # bricks
        img = np.ones((size, size, 3), np.float32) * c1
        bh, bw = rng.randrange(10, 24), rng.randrange(24, 50)
        for r in range(0, size, bh):
            off = (r // bh % 2) * bw // 2
            img[r:r + 2, :] = c2
            for c in range(-off, size, bw):
                img[r:r + bh, max(c, 0):max(c, 0) + 2] = c2
        img += np.random.normal(0, 8, (size, size, 3))
    return np.clip(img, 0, 255).astype(np.uint8)


def smooth_noise(size, cell):
    """Gaussian noise at a coarse scale, smoothly upsampled (no blocky cells)."""
    from PIL import Image
    small = np.random.normal(0, 1, (max(2, size // cell), max(2, size // cell))).astype(np.float32)
    return np.asarray(Image.fromarray(small, mode='F').resize((size, size), Image.BICUBIC))


def field_background(rng, size, nonleaf):
    """A background a leaf could lie on in a field: soil, blurred foliage, or a crop of a non-leaf photo."""
    kind = rng.random()
    if kind < 0.4 or nonleaf is None:  # soil: warm brown with coarse and fine noise
        base = np.array([rng.uniform(70, 150), rng.uniform(50, 110), rng.uniform(30, 80)], np.float32)
        coarse = smooth_noise(size, 8)[..., None]
        img = base + coarse * rng.uniform(8, 25) + np.random.normal(0, 10, (size, size, 3))
    elif kind < 0.7:  # out-of-focus foliage: blotches of green and shadow
        coarse = smooth_noise(size, 16)[..., None]
        green = np.array([rng.uniform(30, 90), rng.uniform(80, 160), rng.uniform(20, 70)], np.float32)
        img = green * (0.75 + 0.25 * coarse) + np.random.normal(0, 6, (size, size, 3))
    else:
        nmeta, ndata = nonleaf
        src = ndata[rng.randrange(nmeta['count'])]
        y, x = rng.randrange(src.shape[0] - size + 1), rng.randrange(src.shape[1] - size + 1)
        img = src[y:y + size, x:x + size].astype(np.float32)
    return np.clip(img, 0, 255)


def replace_background(hwc, rng, nonleaf):
    """Lab photos show one leaf on a plain backdrop: cut the leaf out by the border colour and put it
    on a field-like background, so the model cannot rely on the backdrop."""
    img = hwc.astype(np.float32)
    border = np.concatenate([img[0], img[-1], img[:, 0], img[:, -1]])
    backdrop = np.median(border, axis=0)
    distance = np.abs(img - backdrop).sum(axis=2)
    mask = (distance > 60).astype(np.float32)
    if mask.mean() < 0.1 or mask.mean() > 0.95:  # segmentation failed: keep the photo as it is
        return hwc
    # soften the edge a little
    padded = np.pad(mask, 1, mode='edge')
    mask = sum(padded[dy:dy + mask.shape[0], dx:dx + mask.shape[1]] for dy in range(3) for dx in range(3)) / 9
    bg = field_background(rng, img.shape[0], nonleaf)
    out = img * mask[..., None] + bg * (1 - mask[..., None])
    return np.clip(out, 0, 255).astype(np.uint8)


ALL_CROPS = -1  # a non-leaf photo trains every crop head: a farmer may name a crop and photograph a dog
NO_CROP = -2  # a leaf of no known crop trains the general head only


def by_source(weights, item, default):
    source = item.get('source')
    return weights.get(f"{source}:{item['label']}", weights.get(source, default))


class TrainSet(Dataset):
    """Yields (image, label, crop head index or ALL_CROPS or NO_CROP, the sample's weight in its crop head)."""

    def __init__(self, leaves, nonleaf, synthetic_count, nonleaf_repeats, field_weight, seed, bg_replace=0.0,
                 source_weights=None, crop_weights=None):
        self.items = []  # (array, index, label, is_lab, crop head, crop-head weight)
        (meta, data) = leaves
        weights = source_weights or {}
        for i, item in enumerate(meta['items']):
            repeats = by_source(weights, item, field_weight if item.get('setting') == 'field' else 1)
            crop = crop_of(item.get('crop'))
            head = CROPS.index(crop) if crop else NO_CROP
            crop_weight = float(by_source(crop_weights or {}, item, 1))
            for _ in range(repeats):
                self.items.append((data, i, CLASSES.index(item['label']), item.get('setting') == 'lab', head,
                                   crop_weight))
        if nonleaf is not None:
            nmeta, ndata = nonleaf
            for i in range(nmeta['count']):
                for _ in range(nonleaf_repeats):
                    self.items.append((ndata, i, NOT_LEAF, False, ALL_CROPS, 1.0))
        self.nonleaf = nonleaf
        self.bg_replace = bg_replace
        self.synthetic_count = synthetic_count
        self.rng = random.Random(seed)
        self.tf = T.Compose([
            T.RandomResizedCrop(INPUT_SIZE, scale=(0.3, 1.0), ratio=(0.7, 1.4)),
            T.RandomHorizontalFlip(),
            T.RandomVerticalFlip(),
            T.RandomApply([T.RandomRotation(25)], p=0.3),
            T.ColorJitter(0.35, 0.35, 0.35, 0.04),
            T.RandomApply([T.GaussianBlur(5, sigma=(0.1, 2.0))], p=0.25),
            T.RandomGrayscale(0.03),
        ])
        self.erase = T.RandomErasing(p=0.2, scale=(0.02, 0.12))

    def __len__(self):
        return len(self.items) + self.synthetic_count

    def __getitem__(self, idx):
        if idx < len(self.items):
            data, i, label, is_lab, head, crop_weight = self.items[idx]
            hwc = data[i]
            if is_lab and self.rng.random() < self.bg_replace:
                hwc = replace_background(hwc, self.rng, self.nonleaf)
        else:
            hwc, label, head, crop_weight = synthetic_nonleaf(self.rng), NOT_LEAF, ALL_CROPS, 1.0
        chw = torch.from_numpy(np.ascontiguousarray(hwc)).permute(2, 0, 1)
        x = normalize(self.tf(chw))
        return self.erase(x), label, head, crop_weight


def training_loss(model, x, y, head, crop_weight, smoothing=0.1):
    """The general head's cross-entropy plus the crop heads': each leaf trains its own crop's head (weighted
    by --crop-weights), each non-leaf photo every crop head."""
    general, per_crop = model.all_logits(x)
    loss = nn.functional.cross_entropy(general, y, label_smoothing=smoothing)
    if per_crop is None:
        return loss
    n = len(CROPS)
    ce = nn.functional.cross_entropy(per_crop.flatten(0, 1), y.repeat_interleave(n), label_smoothing=smoothing,
                                     reduction='none').view(-1, n)
    mask = (head.unsqueeze(1) == torch.arange(n)).float() + (head == ALL_CROPS).float().unsqueeze(1)
    w = mask * crop_weight.float().unsqueeze(1)
    if w.sum() > 0:
        loss = loss + (ce * w).sum() / w.sum()
    return loss


def evaluate(model, eval_set, batch=128):
    meta, data = eval_set
    model.eval()
    probs = []
    with torch.no_grad():
        for s in range(0, meta['count'], batch):
            x = torch.from_numpy(data[s:s + batch]).permute(0, 3, 1, 2)
            probs.append(torch.softmax(model(normalize(x)), 1))
    probs = torch.cat(probs).numpy()
    labels = [CLASSES.index(it['label']) for it in meta['items']]
    pred = probs.argmax(1)
    n = len(CLASSES)
    confusion = np.zeros((n, n), dtype=int)
    for t, p in zip(labels, pred):
        confusion[t, p] += 1
    per_class = {}
    f1s = []
    for c in range(3):
        tp = confusion[c, c]
        precision = tp / max(confusion[:, c].sum(), 1)
        recall = tp / max(confusion[c, :].sum(), 1)
        f1 = 0 if precision + recall == 0 else 2 * precision * recall / (precision + recall)
        per_class[CLASSES[c]] = {'precision': round(float(precision), 4), 'recall': round(float(recall), 4)}
        f1s.append(f1)
    accuracy = float((pred == np.array(labels)).mean()) if labels else 0.0
    by_setting = {}
    for setting in sorted({it.get('setting', 'unknown') for it in meta['items']}):
        idx = [i for i, it in enumerate(meta['items']) if it.get('setting', 'unknown') == setting]
        by_setting[setting] = round(float((pred[idx] == np.array(labels)[idx]).mean()), 4)
    return {
        'images': len(labels),
        'accuracy': round(accuracy, 4),
        'macro_f1': round(float(np.mean(f1s)), 4),
        'per_class': per_class,
        'accuracy_by_setting': by_setting,
        'confusion': {'labels': CLASSES, 'matrix': confusion.tolist()},
    }


def ood_statistics(model, leaves, k=64):
    """Class means and whitened principal directions of the pooled features of the training leaves (as
    served: the cached photos shrunk to the input size), for the graph's out-of-distribution output."""
    meta, data = leaves
    labels = np.array([CLASSES.index(it['label']) for it in meta['items']])
    feats = []
    with torch.no_grad():
        for s in range(0, meta['count'], 128):
            x = torch.from_numpy(data[s:s + 128]).permute(0, 3, 1, 2).float()
            x = nn.functional.interpolate(x, size=(INPUT_SIZE, INPUT_SIZE), mode='bilinear', antialias=True,
                                          align_corners=False)
            feats.append(model.feature_map(normalize(x.round().clamp(0, 255).byte())).mean(dim=(2, 3)))
    ood = OodScore(torch.cat(feats).numpy(), labels, k=max(1, min(k, meta['count'] - 4)))
    return {'P': torch.from_numpy(ood.P), 'means': torch.from_numpy(ood.means)}


def main():
    exit_with_parent()  # never outlive the server (kill -9)
    ap = argparse.ArgumentParser()
    ap.add_argument('--cache', required=True)
    ap.add_argument('--out', required=True)
    ap.add_argument('--epochs', type=int, default=18)
    ap.add_argument('--batch', type=int, default=64)
    ap.add_argument('--lr', type=float, default=3e-3)
    ap.add_argument('--init', help='weights.pt to fine-tune from')
    ap.add_argument('--synthetic', type=int, default=500, help='synthetic non-leaf images per epoch')
    ap.add_argument('--nonleaf-repeats', type=int, default=4)
    ap.add_argument('--nonleaf-limit', type=int, help='use only the first N negatives (quick runs)')
    ap.add_argument('--field-weight', type=int, default=2, help='how often each field photo is seen per epoch')
    ap.add_argument('--bg-replace', type=float, default=0.0,
                    help='share of lab photos shown on a field-like background instead of their backdrop')
    ap.add_argument('--source-weights', type=json.loads, default=None,
                    help='JSON: how often each photo of a source (or "source:label") is seen per epoch, '
                         'e.g. {"plantdoc": 4, "plantdoc:common_rust": 8}; overrides --field-weight')
    ap.add_argument('--crop-heads', action='store_true',
                    help='add a head per crop (maize, beans) beside the general one; weights that have them keep them')
    ap.add_argument('--crop-weights', type=json.loads, default={'plantdoc': 2, 'plantdoc:common_rust': 5},
                    help='JSON: weight of a source\'s (or "source:label"\'s) photos in their crop head\'s loss, on '
                         'top of how often they are seen; the general head is not affected')
    ap.add_argument('--seed', type=int, default=42)
    ap.add_argument('--threads', type=int, default=int(os.environ.get('KUTU_TRAIN_THREADS', '2')))
    args = ap.parse_args()

    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    np.random.seed(args.seed)
    started = time.time()
    os.makedirs(args.out, exist_ok=True)

    leaves = load_set(args.cache, 'train')
    nonleaf = load_set(args.cache, 'nonleaf')
    if nonleaf is not None and args.nonleaf_limit is not None:
        nmeta, ndata = nonleaf
        nonleaf = ({**nmeta, 'count': min(nmeta['count'], args.nonleaf_limit)}, ndata[:args.nonleaf_limit])
    eval_set = load_set(args.cache, 'eval')
    if leaves is None:
        raise SystemExit('no training images (train.json missing)')
    train = TrainSet(leaves, nonleaf, args.synthetic, args.nonleaf_repeats, args.field_weight, args.seed,
                     args.bg_replace, args.source_weights, args.crop_weights)
    counts = {c: 0 for c in CLASSES}
    for _, _, label, *_ in train.items:
        counts[CLASSES[label]] += 1
    counts['not_leaf'] += args.synthetic
    note(f'training on {len(train)} samples per epoch: {counts}')
    loader = DataLoader(train, batch_size=args.batch, shuffle=True, num_workers=0, drop_last=len(train) > args.batch)

    model = KutuNet.from_weights(args.init, args.crop_heads) if args.init else KutuNet(crop_heads=args.crop_heads)
    if args.init:
        note(f'fine-tuning from {args.init}')
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=5e-4)
    steps = max(1, args.epochs * len(loader))
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=args.lr, total_steps=steps, pct_start=0.2)

    emit(stage='train', epoch=0, epochs=args.epochs, samples=len(train))
    for epoch in range(1, args.epochs + 1):
        model.train()
        total, seen = 0.0, 0
        t0 = time.time()
        for x, y, head, crop_weight in loader:
            opt.zero_grad()
            loss = training_loss(model, x, y, head, crop_weight)
            loss.backward()
            opt.step()
            sched.step()
            total += loss.item() * len(y)
            seen += len(y)
        event = {'stage': 'train', 'epoch': epoch, 'epochs': args.epochs, 'loss': round(total / max(seen, 1), 4),
                 'seconds': round(time.time() - t0, 1)}
        if eval_set is not None and (epoch == args.epochs or epoch % 3 == 0):
            m = evaluate(model, eval_set)
            event.update(eval_accuracy=m['accuracy'], eval_macro_f1=m['macro_f1'])
        emit(**event)

    emit(stage='export', epoch=args.epochs, epochs=args.epochs)
    model.eval()
    torch.save(model.state_dict(), os.path.join(args.out, 'weights.pt'))
    # A covariance of a few hundred photos or fewer says little about what a leaf looks like: tiny
    # (test) runs export no out-of-distribution output, and the server then skips that check.
    ood = ood_statistics(model, leaves) if leaves[0]['count'] >= MIN_OOD_PHOTOS else None
    if ood is not None:
        torch.save(ood, os.path.join(args.out, 'ood.pt'))
    export_onnx(model, os.path.join(args.out, 'model.onnx'), INPUT_SIZE, ood)
    metrics = {'trainer_eval': evaluate(model, eval_set) if eval_set is not None else None,
               'train_counts': counts, 'epochs': args.epochs, 'seconds': round(time.time() - started, 1),
               'init': bool(args.init), 'torch': torch.__version__}
    json.dump(metrics, open(os.path.join(args.out, 'train-metrics.json'), 'w'), indent=2)
    emit(stage='done', epoch=args.epochs, epochs=args.epochs, seconds=metrics['seconds'])


if __name__ == '__main__':
    main()
