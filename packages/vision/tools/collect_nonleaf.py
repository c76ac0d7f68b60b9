"""Builds data/nonleaf/ from images that Debian packages ship (see data/nonleaf/SOURCES.md).

Usage (as root or any user):
  mkdir -p /tmp/debs /tmp/ext && cd /tmp/debs && apt-get download desktop-base gnome-backgrounds \
    imagemagick-6-doc lomiri-wallpapers plasma-workspace-wallpapers python3-skimage ukui-wallpapers
  for f in *.deb; do dpkg -x "$f" /tmp/ext/"${f%%_*}"; done
  /usr/bin/python3 packages/vision/tools/collect_nonleaf.py /tmp/ext packages/vision/data/nonleaf
"""
import glob
import os
import sys

import numpy as np
from PIL import Image

src, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)

# Photos of plants, leaves or flowers are left out: they would teach "not a leaf" for leaves.
EXCLUDE = {'Autumn', 'FallenLeaf', 'Path', 'grass.png', 'bluebells_clipped.jpg', 'bluebells_darker.jpg',
           'bluebells_lin.jpg', 'bluebells_log.jpg', 'rose-sigmoidal.png', 'examples.jpg'}

picked = []
for d in sorted(glob.glob(f'{src}/plasma-workspace-wallpapers/usr/share/wallpapers/*')):
    files = sorted(glob.glob(d + '/contents/images/*'), key=os.path.getsize)
    if files and os.path.basename(d) not in EXCLUDE:
        picked.append(('plasma-workspace-wallpapers', os.path.basename(d), files[-1]))
for f in sorted(glob.glob(f'{src}/ukui-wallpapers/usr/share/backgrounds/*')):
    picked.append(('ukui-wallpapers', os.path.splitext(os.path.basename(f))[0], f))
for f in sorted(glob.glob(f'{src}/gnome-backgrounds/usr/share/backgrounds/gnome/*.webp')):
    picked.append(('gnome-backgrounds', os.path.splitext(os.path.basename(f))[0], f))
picked.append(('lomiri-wallpapers', 'warty-final-ubuntu',
               f'{src}/lomiri-wallpapers/usr/share/backgrounds/warty-final-ubuntu.png'))
sk = f'{src}/python3-skimage/usr/lib/python3/dist-packages/skimage/data/'
for name in ['astronaut.png', 'camera.png', 'brick.png', 'gravel.png', 'text.png', 'cell.png', 'coins.png',
             'horse.png', 'clock_motion.png', 'chelsea.png', 'coffee.png', 'hubble_deep_field.jpg', 'retina.jpg',
             'rocket.jpg', 'motorcycle_left.png', 'page.png', 'moon.png', 'ihc.png', 'color.png', 'logo.png']:
    picked.append(('python3-skimage', os.path.splitext(name)[0], sk + name))
im = f'{src}/imagemagick-6-doc/usr/share/doc/imagemagick-6-common/html/images/'
for f in sorted(glob.glob(im + '*')):
    base = os.path.basename(f)
    if f.endswith(('.jpg', '.png')) and os.path.getsize(f) > 10000 and base not in EXCLUDE:
        picked.append(('imagemagick-6-doc', os.path.splitext(base)[0], f))

n = 0
for pkg, name, path in picked:
    img = Image.open(path)
    img = img.convert('RGBA')
    bg = Image.new('RGBA', img.size, (255, 255, 255, 255))
    img = Image.alpha_composite(bg, img).convert('RGB')
    img.thumbnail((320, 320), Image.LANCZOS)
    img.save(f'{out}/{pkg}__{name}.jpg', quality=88)
    n += 1

# Faces: the Labeled Faces in the Wild subset that scikit-image ships (the first 100 are faces).
faces = np.load(sk + 'lfw_subset.npy')[:100]
for i, face in enumerate(faces[::4]):
    g = Image.fromarray((face * 255).astype('uint8')).resize((96, 96), Image.BICUBIC).convert('RGB')
    g.save(f'{out}/python3-skimage__lfw_face_{i:02d}.jpg', quality=90)
    n += 1
print(n, 'images written to', out)
