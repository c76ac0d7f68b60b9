"""By-source sweep of fine-tuned pretrained MobileNetV2 recipes on a GPU (figures (a)-(c) of decision 0013).

For each recipe it trains, per split, a whole network from `pretrained/mobilenet_v2_nsfwjs.pt`:
  fold0..2  every rust3 photo except the evaluation set and one third of the PlantDoc photos (the same
            thirds as recipe/plantdoc_holdout.ts); scored on that third (b), on the evaluation set's iBean
            photos (c) and lab photos, and on the non-leaf test photos
  all       every photo except the evaluation set (the model to serve); scored on the evaluation set
  lab       PlantVillage lab photos (no evaluation-set photo) and the non-leaf negatives only; scored on
            every iBean photo (a)
A photo counts as correct only with a confident diagnosis of its true class, with the app's rule
(src/decide.ts): P(not a leaf) < 0.25 and the class's share among the crop classes >= 0.5. The colour
checks and the ood score are not applied here, so the non-leaf figure is a lower bound of the served one.

Results go to <out>/results.jsonl, one line per split, as they finish, with every scored photo's
probabilities in <out>/probs.npz; the weights of the recipes named in --save go to
<out>/<recipe>_s<seed>_<split>.pt. No new split starts when it would pass the time budget. A recipe may
name its seed: m160xl@7.

  PYTHONPATH=packages/vision python3 -m recipe.sweep --out /tmp/sweep --budget 540 --recipes m160xl,m160xl@7 \
    --splits fold0,fold1,fold2,lab,all --save m160xl      # the served recipe (v2-20261124)
"""
import argparse
import glob
import io
import json
import math
import os
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import torch
import torch.nn.functional as F
from PIL import Image
from torch import nn

from trainer.mobilenet import MobileNetV2Features

HERE = os.path.dirname(os.path.abspath(__file__))
VISION = os.path.dirname(HERE)

CLASSES = ['common_rust', 'healthy', 'other_disease', 'not_leaf']
NOT_LEAF = 3
MEAN = torch.tensor([0.485, 0.456, 0.406]).view(1, 3, 1, 1)
STD = torch.tensor([0.229, 0.224, 0.225]).view(1, 3, 1, 1)
STORE = 224  # training photos are kept at this size; random crops are resized to the recipe's input

RECIPES = {
    # name: input size, epochs, per-source sampling weights, backbone learning rate
    'm224': dict(size=224, epochs=14, weights={'plantdoc': 3, 'ibean': 2}, lr=4e-4),
    'm160': dict(size=160, epochs=14, weights={'plantdoc': 3, 'ibean': 2}, lr=4e-4),
    'm192': dict(size=192, epochs=14, weights={'plantdoc': 3, 'ibean': 2}, lr=4e-4),
    'm224r': dict(size=224, epochs=14, weights={'plantdoc': 3, 'ibean': 2, 'plantdoc:common_rust': 6}, lr=4e-4),
    'm224long': dict(size=224, epochs=24, weights={'plantdoc': 3, 'ibean': 2}, lr=4e-4),
    'm160long': dict(size=160, epochs=24, weights={'plantdoc': 3, 'ibean': 2}, lr=4e-4),
    'm160xl': dict(size=160, epochs=36, weights={'plantdoc': 3, 'ibean': 2}, lr=4e-4),
    'm160x54': dict(size=160, epochs=54, weights={'plantdoc': 3, 'ibean': 2}, lr=4e-4),
    'm160x72': dict(size=160, epochs=72, weights={'plantdoc': 3, 'ibean': 2}, lr=4e-4),
    # lab photos on field-like backgrounds (soil, blurred foliage) 60 % of the time
    'm160longbg': dict(size=160, epochs=24, weights={'plantdoc': 3, 'ibean': 2}, lr=4e-4, bg=0.6),
    'm160bg': dict(size=160, epochs=14, weights={'plantdoc': 3, 'ibean': 2}, lr=4e-4, bg=0.6),
    'm192bg': dict(size=192, epochs=14, weights={'plantdoc': 3, 'ibean': 2}, lr=4e-4, bg=0.6),
    # the photo's aspect kept (a pack of recipe/pack.py --sources): each photo fitted inside a store×store canvas,
    # random crops are squares of the photo (30-100 % of its shorter side's square; none reaches past the photo),
    # and the photo is scored on its centre square ('cc'), with every view of VIEWS kept
    'a224': dict(size=224, epochs=36, weights={'plantdoc': 3, 'ibean': 2}, lr=4e-4, aspect=True, view='cc'),
}
# the test views of a sources pack (sweep scores each photo on all of them): whole photo squashed to a square
# (the served input), centre square of the shorter side, whole photo letterboxed (aspect kept, mirrored edges),
# centre squares of 70 % and 50 % of the shorter side, the two end squares along the longer side (left/right or
# top/bottom; with the centre square they cover the photo)
VIEWS = ['sq', 'cc', 'lb', 'c70', 'c50', 'e1', 'e2']


def source_of(name):
    return name.split('__')[0]


def load_image(path, size):
    img = Image.open(path)
    img = img.convert('RGB')
    return np.asarray(img.resize((size, size), Image.LANCZOS), dtype=np.uint8)


def load_many(paths, size, pool):
    if not paths:
        return np.zeros((0, size, size, 3), np.uint8)
    return np.stack(list(pool.map(lambda p: load_image(p, size), paths)))


class Pack:
    """The compact copy written by recipe/pack.py: each image stored once at the size it is used at."""

    def __init__(self, folder):
        self.index = json.load(open(os.path.join(folder, 'index.json')))
        self.blobs = open(os.path.join(folder, 'blobs.bin'), 'rb').read()

    def _decode(self, off, n, size):
        img = Image.open(io.BytesIO(self.blobs[off:off + n])).convert('RGB')
        if img.size != (size, size):
            img = img.resize((size, size), Image.LANCZOS)
        return np.asarray(img, dtype=np.uint8)

    def images(self, kind, names, size, pool):
        """names' images of `kind` (train, test); a name the pack lacks there gives a black image (a photo
        that is never read at that size). negatives and nonleaf: all, in order."""
        if names is None:
            spans = [(off, n) for _, off, n in self.index[kind]]
        else:
            table = self.index[kind]
            # a test-size image the pack lacks is made from the training copy
            spans = [table.get(f) or (self.index['train'].get(f) if kind == 'test' else None) for f in names]
        if not spans:
            return np.zeros((0, size, size, 3), np.uint8)
        blank = np.zeros((size, size, 3), np.uint8)
        return np.stack(list(pool.map(lambda s: self._decode(s[0], s[1], size) if s else blank, spans)))


class Sources:
    """Each image once, its aspect kept: a pack of recipe/pack.py --sources, or the repository's files."""

    def __init__(self, folder, data):
        self.folder, self.data = folder, data
        if folder:
            self.index = json.load(open(os.path.join(folder, 'index.json')))
            self.blobs = open(os.path.join(folder, 'blobs.bin'), 'rb').read()

    def image(self, key):
        if self.folder:
            off, n = self.index['images'][key]
            return Image.open(io.BytesIO(self.blobs[off:off + n])).convert('RGB')
        kind, name = key.split(':', 1)
        path = {'photo': os.path.join(self.data, name), 'negatives': os.path.join(VISION, 'negatives', name),
                'nonleaf': os.path.join(VISION, 'test', 'fixtures', 'nonleaf', name)}[kind]
        img = Image.open(path).convert('RGB')
        img.thumbnail((STORE, STORE), Image.LANCZOS)
        return img


def canvas(img, size, aspect):
    """uint8 size×size×3 and the photo's half-extent (x, y) on it in [0, 1]: fitted inside and centred, mirrored
    edges around it (aspect), or squashed to the square."""
    if not aspect:
        return np.asarray(img.resize((size, size), Image.LANCZOS), dtype=np.uint8), (1.0, 1.0)
    w, h = img.size
    k = size / max(w, h)
    nw, nh = max(1, min(size, round(w * k))), max(1, min(size, round(h * k)))
    a = np.asarray(img.resize((nw, nh), Image.LANCZOS), dtype=np.uint8)
    top, left = (size - nh) // 2, (size - nw) // 2
    a = np.pad(a, ((top, size - nh - top), (left, size - nw - left), (0, 0)), mode='symmetric')
    return a, (nw / size, nh / size)


def views(img, size):
    """VIEWS of one photo, V×size×size×3 uint8."""
    w, h = img.size
    s = min(w, h)

    def square(cx, cy, side):
        box = (cx - side / 2, cy - side / 2, cx + side / 2, cy + side / 2)
        return np.asarray(img.resize((size, size), Image.LANCZOS, box=box), dtype=np.uint8)

    out = {'sq': np.asarray(img.resize((size, size), Image.LANCZOS), dtype=np.uint8),
           'cc': square(w / 2, h / 2, s), 'lb': canvas(img, size, True)[0],
           'c70': square(w / 2, h / 2, 0.7 * s), 'c50': square(w / 2, h / 2, 0.5 * s)}
    if w >= h:
        out['e1'], out['e2'] = square(s / 2, h / 2, s), square(w - s / 2, h / 2, s)
    else:
        out['e1'], out['e2'] = square(w / 2, s / 2, s), square(w / 2, h - s / 2, s)
    return np.stack([out[v] for v in VIEWS])


class Net(nn.Module):
    def __init__(self, pretrained):
        super().__init__()
        self.backbone = MobileNetV2Features()
        self.backbone.load_state_dict({k: v.float() for k, v in torch.load(pretrained, map_location='cpu').items()})
        for m in self.backbone.modules():
            if isinstance(m, nn.BatchNorm2d):
                m.momentum = 0.05
        self.dropout = nn.Dropout(0.2)
        self.classifier = nn.Linear(1280, len(CLASSES))

    def forward(self, x):
        return self.classifier(self.dropout(self.backbone(x).mean(dim=(2, 3))))


def field_backgrounds(x, replace, gen):
    """Lab photos (a leaf on a plain grey or dark board) with the board replaced by soil or blurred foliage.
    The board: low-saturation pixels close to the corners' colour, in large regions only (so a pale lesion or
    a midrib inside the leaf stays); a soft edge; the new background is a base colour with smooth shading."""
    n, _, h, w = x.shape
    dev = x.device
    corners = torch.stack([x[:, :, :8, :8], x[:, :, :8, -8:], x[:, :, -8:, :8], x[:, :, -8:, -8:]], 1)
    corner = corners.mean(dim=(1, 3, 4)).view(n, 3, 1, 1)
    mx, mn = x.max(1, keepdim=True).values, x.min(1, keepdim=True).values
    sat = (mx - mn) / (mx + 1e-3)
    board = ((sat < 0.22) & ((x - corner).abs().max(1, keepdim=True).values < 0.16)).float()
    large = (F.avg_pool2d(board, 15, 1, 7, count_include_pad=False) > 0.6).float()
    board = board * F.max_pool2d(large, 13, 1, 6)  # board-coloured and next to a large board region
    corner_sat = (corner.max(1).values - corner.min(1).values) / (corner.max(1).values + 1e-3)
    share = board.mean(dim=(1, 2, 3))
    plain = (corner_sat.view(n) < 0.2) & (share > 0.05) & (share < 0.85)  # a board, not a close-up of a leaf
    replace = replace & plain
    board = F.avg_pool2d(board, 3, 1, 1, count_include_pad=False)  # soft edge
    shade = F.interpolate(torch.randn(n, 1, 5, 5, device=dev, generator=gen), size=(h, w), mode='bicubic',
                          align_corners=False)
    soil = torch.tensor([0.42, 0.31, 0.20], device=dev).view(1, 3, 1, 1)
    foliage = torch.tensor([0.20, 0.36, 0.14], device=dev).view(1, 3, 1, 1)
    pick = (torch.rand(n, 1, 1, 1, device=dev, generator=gen) < 0.5).float()
    base = (pick * soil + (1 - pick) * foliage) * (0.6 + 0.8 * torch.rand(n, 1, 1, 1, device=dev, generator=gen))
    bg = base * (1 + 0.35 * shade) + torch.randn(n, 1, h, w, device=dev, generator=gen) * 0.025
    keep = replace.view(n, 1, 1, 1).float()
    return x * (1 - keep * board) + bg.clamp(0, 1) * keep * board


def augment(batch_u8, size, gen, bg_mask=None, extent=None):
    """uint8 N×H×W×3 on the GPU → normalised N×3×size×size: random resized crop, rotation, flips, colour,
    blur/low resolution (a phone photo of a leaf on the plant, roughly). With `extent` (N×2, the photo's
    half-extent on its canvas) the crops are squares of the photo, 30-100 % of its shorter side's square."""
    n = batch_u8.shape[0]
    dev = batch_u8.device
    x = batch_u8.permute(0, 3, 1, 2).float() / 255.0
    u = lambda lo, hi: torch.rand(n, device=dev, generator=gen) * (hi - lo) + lo  # noqa: E731
    if bg_mask is not None and bg_mask.any():
        x = field_backgrounds(x, bg_mask, gen)
    scale = u(0.3, 1.0).sqrt()  # side fraction of the crop
    aspect = torch.exp(u(math.log(3 / 4), math.log(4 / 3))).sqrt()
    if extent is None:
        sx, sy = scale * aspect, scale / aspect
        sx, sy = sx.clamp(max=1), sy.clamp(max=1)
        tx, ty = (1 - sx) * u(-1, 1), (1 - sy) * u(-1, 1)
    else:
        ex, ey = extent[:, 0], extent[:, 1]
        side = scale * torch.minimum(ex, ey)
        sx, sy = torch.minimum(side * aspect, ex), torch.minimum(side / aspect, ey)
        tx, ty = (ex - sx) * u(-1, 1), (ey - sy) * u(-1, 1)
    angle = u(-25, 25) * math.pi / 180
    flipx = torch.where(torch.rand(n, device=dev, generator=gen) < 0.5, -1.0, 1.0)
    flipy = torch.where(torch.rand(n, device=dev, generator=gen) < 0.5, -1.0, 1.0)
    cos, sin = torch.cos(angle), torch.sin(angle)
    theta = torch.stack([torch.stack([sx * cos * flipx, -sy * sin, tx], 1),
                         torch.stack([sx * sin * flipx, sy * cos * flipy, ty], 1)], 1)
    grid = F.affine_grid(theta, (n, 3, size, size), align_corners=False)
    x = F.grid_sample(x, grid, mode='bilinear', padding_mode='reflection', align_corners=False)
    # colour: brightness, contrast, saturation, a little warmth, gamma
    x = x * u(0.65, 1.35).view(n, 1, 1, 1)
    m = x.mean(dim=(1, 2, 3), keepdim=True)
    x = (x - m) * u(0.7, 1.3).view(n, 1, 1, 1) + m
    g = x.mean(dim=1, keepdim=True)
    x = (x - g) * u(0.6, 1.4).view(n, 1, 1, 1) + g
    warm = u(-0.06, 0.06).view(n, 1, 1, 1)
    x = x + torch.cat([warm, torch.zeros_like(warm), -warm], 1)
    x = x.clamp(0, 1) ** u(0.8, 1.25).view(n, 1, 1, 1)
    # low resolution / blur for a third of the batch
    low = torch.rand(n, device=dev, generator=gen) < 0.33
    if low.any():
        k = int(size * 0.5)
        small = F.interpolate(x[low], size=(k, k), mode='bilinear', antialias=True, align_corners=False)
        x[low] = F.interpolate(small, size=(size, size), mode='bilinear', align_corners=False)
    x = x + torch.randn_like(x) * 0.02
    return ((x.clamp(0, 1) - MEAN.to(dev)) / STD.to(dev)).contiguous(memory_format=torch.channels_last)


def normalise(batch_u8):
    x = batch_u8.permute(0, 3, 1, 2).float() / 255.0
    return ((x - MEAN.to(x.device)) / STD.to(x.device)).contiguous(memory_format=torch.channels_last)


@torch.no_grad()
def predict(model, images_u8, dev):
    model.eval()
    out = []
    for i in range(0, len(images_u8), 256):
        b = torch.from_numpy(images_u8[i:i + 256]).to(dev)
        with torch.autocast(dev, dtype=torch.bfloat16, enabled=dev == 'cuda'):
            out.append(model(normalise(b)).float().softmax(1).cpu())
    return torch.cat(out).numpy() if out else np.zeros((0, 4), np.float32)


def diagnosis(probs, cut=0.5):
    """The app's rule (src/decide.ts) without colour checks or ood: (crop class, confident?) per photo."""
    leaf = probs[:, :3] / probs[:, :3].sum(1, keepdims=True)
    return leaf.argmax(1), (probs[:, NOT_LEAF] < 0.25) & (leaf.max(1) >= cut)


def score(probs, labels):
    """Confident-and-correct share, argmax share, rust recall (confident), unsure share."""
    pred, confident = diagnosis(probs)
    labels = np.asarray(labels)
    correct = confident & (pred == labels)
    rust = labels == 0
    return dict(n=int(len(labels)), correct=int(correct.sum()), acc=float(correct.mean()) if len(labels) else 0,
                argmax=float((probs.argmax(1) == labels).mean()) if len(labels) else 0,
                rust_n=int(rust.sum()), rust_found=int((correct & rust).sum()),
                unsure=float((~confident).mean()) if len(labels) else 0)


def refused(probs):
    _, confident = diagnosis(probs)
    return dict(n=int(len(probs)), refused=int((~confident).sum()))


def train(recipe, train_x, train_y, train_w, train_lab, dev, seed, log, train_ext=None):
    torch.manual_seed(seed)
    gen = torch.Generator(device=dev)
    gen.manual_seed(seed)
    model = Net(ARGS.pretrained).to(dev).to(memory_format=torch.channels_last)
    head = list(model.classifier.parameters())
    opt = torch.optim.AdamW([{'params': model.backbone.parameters(), 'lr': recipe['lr']},
                             {'params': head, 'lr': recipe['lr'] * 5}], weight_decay=0.02)
    base = [g['lr'] for g in opt.param_groups]
    x_gpu = torch.from_numpy(train_x).to(dev)
    y_gpu = torch.from_numpy(np.asarray(train_y, np.int64)).to(dev)
    w_gpu = torch.from_numpy(np.asarray(train_w, np.float32)).to(dev)
    lab_gpu = torch.from_numpy(np.asarray(train_lab, bool)).to(dev)
    ext_gpu = torch.from_numpy(np.asarray(train_ext, np.float32)).to(dev) if recipe.get('aspect') else None
    batch = 128
    steps_per_epoch = max(1, len(train_x) // batch)
    total = steps_per_epoch * recipe['epochs']
    warm = steps_per_epoch
    step = 0
    t0 = time.time()
    for epoch in range(recipe['epochs']):
        model.train()
        idx = torch.multinomial(w_gpu, steps_per_epoch * batch, replacement=True, generator=gen)
        run_loss = 0.0
        for s in range(steps_per_epoch):
            j = idx[s * batch:(s + 1) * batch]
            bg = None
            if recipe.get('bg'):
                bg = lab_gpu[j] & (torch.rand(len(j), device=dev, generator=gen) < recipe['bg'])
            xb = augment(x_gpu[j], recipe['size'], gen, bg, None if ext_gpu is None else ext_gpu[j])
            f = min(1.0, (step + 1) / warm) * 0.5 * (1 + math.cos(math.pi * step / total))
            for g, lr in zip(opt.param_groups, base):
                g['lr'] = lr * f
            with torch.autocast(dev, dtype=torch.bfloat16, enabled=dev == 'cuda'):
                loss = F.cross_entropy(model(xb).float(), y_gpu[j], label_smoothing=0.1)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            run_loss += loss.item() if s % 10 == 0 else 0
            step += 1
        loss = run_loss / max(1, steps_per_epoch // 10)
        log(f'  epoch {epoch + 1}/{recipe["epochs"]} loss~{loss:.3f} {time.time() - t0:.0f}s')
    return model


def main():
    t_start = time.time()
    dev = ARGS.device
    torch.backends.cudnn.benchmark = True
    os.makedirs(ARGS.out, exist_ok=True)
    logf = open(os.path.join(ARGS.out, 'log.txt'), 'a')

    def log(*a):
        s = ' '.join(str(x) for x in a)
        print(s, flush=True)
        logf.write(s + '\n')
        logf.flush()

    eval_items = json.load(open(os.path.join(VISION, 'eval-set.json')))['items']
    eval_files = {it['file'] for it in eval_items}
    photos = []  # (relative file, label index, source)
    specs = [RECIPES[r.partition('@')[0]] for r in ARGS.recipes]
    src = None  # aspect-kept sources: a pack of recipe/pack.py --sources, or the repository's photos
    if ARGS.pack and json.load(open(os.path.join(ARGS.pack, 'index.json'))).get('format') == 'sources':
        src = Sources(ARGS.pack, None)
        photos = [tuple(p) for p in src.index['photos']]
    elif ARGS.pack:
        pack = Pack(ARGS.pack)
        photos = [tuple(p) for p in pack.index['photos']]
    else:
        if any(r.get('aspect') for r in specs):
            src = Sources(None, ARGS.data)
        for ci, c in enumerate(CLASSES[:3]):
            for p in sorted(glob.glob(os.path.join(ARGS.data, c, '*.jpg'))):
                photos.append((f'{c}/{os.path.basename(p)}', ci, source_of(os.path.basename(p))))
    photos = photos[::ARGS.every]
    fold_of = {}
    for c in CLASSES[:3]:
        pd = sorted(f for f, _, s in photos if s == 'plantdoc' and f.startswith(c + '/'))
        for i, f in enumerate(pd):
            fold_of[f] = i % 3
    negatives = sorted(glob.glob(os.path.join(VISION, 'negatives', '*.jpg')))
    nonleaf_test = sorted(glob.glob(os.path.join(VISION, 'test', 'fixtures', 'nonleaf', '*.*')))
    pool = ThreadPoolExecutor(16)
    sizes = sorted({r['size'] for r in specs})
    extents = neg_extents = test_row = None
    if src is not None:
        aspect = any(r.get('aspect') for r in specs)
        if aspect and not all(r.get('aspect') for r in specs):
            raise SystemExit('aspect and squashed recipes need separate sweep runs (one training canvas)')
        if 'lab' in ARGS.splits:
            raise SystemExit('a sources pack scores no lab split (its iBean photos are not views)')

        def store_of(keys):
            got = list(pool.map(lambda k: canvas(src.image(k), STORE, aspect), keys))
            if not got:
                return np.zeros((0, STORE, STORE, 3), np.uint8), np.zeros((0, 2), np.float32)
            return np.stack([g[0] for g in got]), np.array([g[1] for g in got], np.float32)

        store, extents = store_of(['photo:' + f for f, _, _ in photos])
        negatives = src.index['negatives'] if src.folder else [os.path.basename(n) for n in negatives]
        neg_store, neg_extents = store_of(['negatives:' + n for n in negatives])
        tested = [i for i, (f, _, s) in enumerate(photos) if s == 'plantdoc' or f in eval_files]
        test_row = np.full(len(photos), -1)
        test_row[tested] = np.arange(len(tested))
        nonleaf_test = src.index['nonleaf'] if src.folder else [os.path.basename(n) for n in nonleaf_test]
        test_at = {s: np.stack(list(pool.map(lambda i: views(src.image('photo:' + photos[i][0]), s), tested)))
                   for s in sizes}
        nonleaf_at = {s: np.stack(list(pool.map(lambda n: views(src.image('nonleaf:' + n), s), nonleaf_test)))
                      for s in sizes}
    elif ARGS.pack:
        names = [f for f, _, _ in photos]
        store = pack.images('train', names, STORE, pool)
        neg_store = pack.images('negatives', None, STORE, pool)
        negatives = [n for n, _, _ in pack.index['negatives']]
        test_at = {s: pack.images('test', names, s, pool) for s in sizes}
        nonleaf_at = {s: pack.images('nonleaf', None, s, pool) for s in sizes}
        nonleaf_test = [n for n, _, _ in pack.index['nonleaf']]
    else:
        store = load_many([os.path.join(ARGS.data, f) for f, _, _ in photos], STORE, pool)
        neg_store = load_many(negatives, STORE, pool)
        photo_files = [os.path.join(ARGS.data, f) for f, _, _ in photos]
        test_at = {s: load_many(photo_files, s, pool) if s != STORE else store for s in sizes}
        nonleaf_at = {s: load_many(nonleaf_test, s, pool) for s in sizes}
    log(f'loaded {len(photos)} photos, {len(negatives)} negatives, {len(nonleaf_test)} non-leaf test photos '
        f'in {time.time() - t_start:.0f}s')
    labels = np.array([c for _, c, _ in photos])
    sources = np.array([s for _, _, s in photos])
    in_eval = np.array([f in eval_files for f, _, _ in photos])
    fold = np.array([fold_of.get(f, -1) for f, _, _ in photos])

    def weights(mask, recipe):
        w = np.ones(mask.sum(), np.float32)
        src, lab = sources[mask], labels[mask]
        for key, v in recipe['weights'].items():
            if ':' in key:
                s, c = key.split(':')
                w[(src == s) & (lab == CLASSES.index(c))] = v
            else:
                w[src == key] = v
        return w

    split_seconds = None
    dumps = {}
    for spec in ARGS.recipes:
        name, _, seed_text = spec.partition('@')
        seed = int(seed_text) if seed_text else ARGS.seed
        recipe = dict(RECIPES[name], **({'epochs': ARGS.epochs} if ARGS.epochs else {}))
        size = recipe['size']
        for split in ARGS.splits:
            elapsed = time.time() - t_start
            if split_seconds and elapsed + split_seconds * (recipe['epochs'] / 14) * (size / 224) ** 2 > ARGS.budget:
                log(f'skip {name} {split}: {elapsed:.0f}s used of {ARGS.budget}')
                continue
            t0 = time.time()
            if split == 'lab':
                mask = (sources == 'plantvillage') & ~in_eval
            elif split == 'all':  # the model to serve: everything but the evaluation set
                mask = ~in_eval
            else:
                k = int(split[-1])
                mask = ~in_eval & (fold != k)
            neg_n = len(neg_store)
            # not-a-leaf: the negatives, weighted to about 8 % of the samples
            train_x = np.concatenate([store[mask], neg_store])
            train_y = np.concatenate([labels[mask], np.full(neg_n, NOT_LEAF)])
            w_leaf = weights(mask, recipe)
            w_neg = np.full(neg_n, 0.08 * w_leaf.sum() / neg_n / 0.92, np.float32)
            train_lab = np.concatenate([sources[mask] == 'plantvillage', np.zeros(neg_n, bool)])
            train_ext = np.concatenate([extents[mask], neg_extents]) if extents is not None else None
            model = train(recipe, train_x, train_y, np.concatenate([w_leaf, w_neg]), train_lab, dev, seed, log,
                          train_ext)
            res = dict(recipe=name, split=split, seed=seed, train_photos=int(mask.sum()))
            tx = test_at[size]
            tag = f'{name}_s{seed}_{split}'

            view = VIEWS.index(recipe.get('view', 'sq'))

            def viewed(images):
                """The recipe's view's probabilities, and every view's (N×V×4) from a sources pack."""
                if test_row is None:
                    return predict(model, images, dev), None
                n, v = images.shape[:2]
                every = predict(model, images.reshape(n * v, *images.shape[2:]), dev).reshape(n, v, -1)
                return every[:, view], every

            def scored(key, m):
                probs, every = viewed(tx[test_row[m]] if test_row is not None else tx[m])
                if every is not None:
                    dumps[f'{tag}_{key}_views'] = every
                    dumps['views'] = np.array(VIEWS)
                dumps[f'{tag}_{key}_probs'] = probs
                dumps[f'{tag}_{key}_labels'] = labels[m]
                dumps[f'{tag}_{key}_files'] = np.array([photos[i][0] for i in np.flatnonzero(m)])
                res[key] = score(probs, labels[m])

            if split == 'lab':
                scored('a_ibean_all', sources == 'ibean')
                scored('plantdoc_all', sources == 'plantdoc')
            else:
                if split != 'all':
                    scored('b_fold', fold == k)
                scored('c_ibean_eval', in_eval & (sources == 'ibean'))
                scored('lab_eval', in_eval & (sources == 'plantvillage'))
                probs, every = viewed(nonleaf_at[size])
                if every is not None:
                    dumps[f'{tag}_nonleaf_views'] = every
                dumps[f'{tag}_nonleaf_probs'] = probs
                res['nonleaf'] = refused(probs)
            if spec in ARGS.save:
                torch.save({k2: v.detach().cpu() for k2, v in model.state_dict().items()},
                           os.path.join(ARGS.out, f'{name}_s{seed}_{split}.pt'))
            res['seconds'] = round(time.time() - t0, 1)
            split_seconds = res['seconds'] * (224 / size) ** 2 * (14 / recipe['epochs'])
            log(json.dumps(res))
            with open(os.path.join(ARGS.out, 'results.jsonl'), 'a') as f:
                f.write(json.dumps(res) + '\n')
            np.savez_compressed(os.path.join(ARGS.out, 'probs.npz'), **dumps)
    log(f'done in {time.time() - t_start:.0f}s')


if __name__ == '__main__':
    p = argparse.ArgumentParser()
    p.add_argument('--out', required=True)
    p.add_argument('--data', default='datasets/rust3')
    p.add_argument('--pack', default='', help='read the photos from a pack of recipe/pack.py instead of --data')
    p.add_argument('--pretrained', default=os.path.join(VISION, 'pretrained', 'mobilenet_v2_nsfwjs.pt'))
    p.add_argument('--recipes', type=lambda s: s.split(','), default=['m224'])
    p.add_argument('--splits', type=lambda s: s.split(','), default=['fold0', 'fold1', 'fold2', 'lab'])
    p.add_argument('--budget', type=float, default=540)
    p.add_argument('--seed', type=int, default=42)
    p.add_argument('--save', type=lambda s: s.split(','), default=[], help='recipes whose fold-0 weights are kept')
    p.add_argument('--device', default='cuda')
    p.add_argument('--every', type=int, default=1, help='keep every Nth photo (smoke tests)')
    p.add_argument('--epochs', type=int, default=0, help='override the recipes\' epochs (smoke tests)')
    ARGS = p.parse_args()
    main()
