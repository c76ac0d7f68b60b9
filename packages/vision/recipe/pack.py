"""A compact copy of what recipe/sweep.py reads, for a GPU machine that can only take a small working tree.

Every rust3 photo outside the evaluation set at the sweep's store size (224×224, resized as sweep.py does)
for training; the photos the sweep scores (evaluation set, PlantDoc field maize, non-leaf test photos) at
the test size (160×160); the non-leaf negatives at 224. Each is one re-encoded image in blobs.bin, located
by index.json. sweep.py --pack DIR reads it instead of the repository's photos. Lab photos are re-encoded
harder than field photos (the v2 run sent its lab photos as JPEG q60; here q50, to fit 64 MiB).

--sources writes the other format, for recipes that keep the photo's aspect (sweep.py `aspect`): each photo once,
with its own aspect, at the repository's size (datasets/rust3 is at most 224 px on the longer side): the PlantDoc
photos and the evaluation set's photos as the repository's bytes, the other lab photos re-encoded at JPEG q50 and
iBean at q70, the negatives and the non-leaf test photos at most 224 px (q80, q95). sweep.py makes the training
canvas and every test view (whole photo squashed, centre square, ...) from these on the GPU machine.

  PYTHONPATH=packages/vision python3 -m recipe.pack --out /tmp/pack
  PYTHONPATH=packages/vision python3 -m recipe.pack --sources --out .gpu/pack    # aspect-keeping recipes
"""
import argparse
import glob
import io
import json
import os
from concurrent.futures import ThreadPoolExecutor

from PIL import Image

from recipe.sweep import CLASSES, STORE, VISION, source_of

QUALITY = {'plantvillage': ('JPEG', 50), 'ibean': ('JPEG', 70), 'plantdoc': ('JPEG', 90)}
TEST = ('JPEG', 95)


def encode(path, size, fmt):
    img = Image.open(path).convert('RGB').resize((size, size), Image.LANCZOS)
    b = io.BytesIO()
    img.save(b, fmt[0], quality=fmt[1])
    return b.getvalue()


def encode_inside(path, size, fmt):
    """At most `size` px on the longer side, the aspect kept (never enlarged)."""
    img = Image.open(path).convert('RGB')
    img.thumbnail((size, size), Image.LANCZOS)
    b = io.BytesIO()
    img.save(b, fmt[0], quality=fmt[1])
    return b.getvalue()


def sources(args, photos, eval_files):
    jobs = []  # (key, path, how)
    for f, _, s in photos:
        path = os.path.join(args.data, f)
        keep = s == 'plantdoc' or f in eval_files
        jobs.append(('photo:' + f, path, None if keep else QUALITY[s]))
    for p in sorted(glob.glob(os.path.join(VISION, 'negatives', '*.jpg'))):
        jobs.append(('negatives:' + os.path.basename(p), p, ('JPEG', 80)))
    for p in sorted(glob.glob(os.path.join(VISION, 'test', 'fixtures', 'nonleaf', '*.*'))):
        jobs.append(('nonleaf:' + os.path.basename(p), p, TEST))

    def one(job):
        _, path, how = job
        return open(path, 'rb').read() if how is None else encode_inside(path, STORE, how)

    with ThreadPoolExecutor(args.threads) as pool:
        blobs = list(pool.map(one, jobs))
    os.makedirs(args.out, exist_ok=True)
    index = {'format': 'sources', 'photos': photos, 'images': {},
             'negatives': [k.split(':', 1)[1] for k, _, _ in jobs if k.startswith('negatives:')],
             'nonleaf': [k.split(':', 1)[1] for k, _, _ in jobs if k.startswith('nonleaf:')]}
    off = 0
    with open(os.path.join(args.out, 'blobs.bin'), 'wb') as out:
        for (key, _, _), b in zip(jobs, blobs):
            out.write(b)
            index['images'][key] = [off, len(b)]
            off += len(b)
    json.dump(index, open(os.path.join(args.out, 'index.json'), 'w'))
    print(f'{len(jobs)} images, {off / 1e6:.1f} MB')


def main(args):
    eval_files = {it['file'] for it in json.load(open(os.path.join(VISION, 'eval-set.json')))['items']}
    photos = []
    for ci, c in enumerate(CLASSES[:3]):
        for p in sorted(glob.glob(os.path.join(args.data, c, '*.jpg'))):
            photos.append((f'{c}/{os.path.basename(p)}', ci, source_of(os.path.basename(p))))
    if args.sources:
        return sources(args, photos, eval_files)
    jobs = []  # (kind, name, path, size, format)
    for f, _, s in photos:
        path = os.path.join(args.data, f)
        if f not in eval_files:
            jobs.append(('train', f, path, STORE, QUALITY[s]))
        if f in eval_files or s == 'plantdoc':
            jobs.append(('test', f, path, args.test_size, TEST))
    for p in sorted(glob.glob(os.path.join(VISION, 'negatives', '*.jpg'))):
        jobs.append(('negatives', os.path.basename(p), p, STORE, ('JPEG', 80)))
    for p in sorted(glob.glob(os.path.join(VISION, 'test', 'fixtures', 'nonleaf', '*.*'))):
        jobs.append(('nonleaf', os.path.basename(p), p, args.test_size, TEST))
    with ThreadPoolExecutor(args.threads) as pool:
        blobs = list(pool.map(lambda j: encode(j[2], j[3], j[4]), jobs))
    os.makedirs(args.out, exist_ok=True)
    index = {'store': STORE, 'test_size': args.test_size, 'photos': photos,
             'train': {}, 'test': {}, 'negatives': [], 'nonleaf': []}
    off = 0
    with open(os.path.join(args.out, 'blobs.bin'), 'wb') as out:
        for (kind, name, _, _, _), b in zip(jobs, blobs):
            out.write(b)
            if kind in ('train', 'test'):
                index[kind][name] = [off, len(b)]
            else:
                index[kind].append([name, off, len(b)])
            off += len(b)
    json.dump(index, open(os.path.join(args.out, 'index.json'), 'w'))
    print(f'{len(jobs)} images, {off / 1e6:.1f} MB')


if __name__ == '__main__':
    p = argparse.ArgumentParser()
    p.add_argument('--out', required=True)
    p.add_argument('--data', default='datasets/rust3')
    p.add_argument('--test-size', type=int, default=160)
    p.add_argument('--threads', type=int, default=1)
    p.add_argument('--sources', action='store_true', help='each photo once, its aspect kept (aspect recipes)')
    main(p.parse_args())
