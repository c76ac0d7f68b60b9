"""Builds negatives/ (training) and test/fixtures/nonleaf/ (held out) from images that Debian packages ship.

See negatives/SOURCES.md and test/fixtures/nonleaf/README.md for the licences.

Usage (as root or any user):
  mkdir -p /tmp/debs /tmp/ext && cd /tmp/debs && apt-get download gnome-backgrounds imagemagick-6-doc \
    lomiri-wallpapers lomiri-wallpapers-16.04 lomiri-wallpapers-20.04 plasma-workspace-wallpapers \
    python3-skimage ukui-wallpapers
  for f in *.deb; do dpkg -x "$f" /tmp/ext/"${f%%_*}"; done
  PYTHONPATH=packages/vision /usr/bin/python3 -m provenance.collect_nonleaf /tmp/ext packages/vision
"""
import glob
import os
import sys

from PIL import Image

src, root = sys.argv[1], sys.argv[2]
out = os.path.join(root, 'negatives')
fixtures = os.path.join(root, 'test/fixtures/nonleaf')
os.makedirs(out, exist_ok=True)
os.makedirs(fixtures, exist_ok=True)

# Held out as test photos (never trained on).
HELD_OUT = {'python3-skimage__camera', 'python3-skimage__chelsea', 'python3-skimage__coffee',
            'python3-skimage__rocket', 'python3-skimage__text', 'plasma-workspace-wallpapers__BytheWater',
            'plasma-workspace-wallpapers__Grey', 'ukui-wallpapers__city', 'gnome-backgrounds__wood-l'}
# Photos without leaves from lomiri-wallpapers-16.04/20.04 (per-file CC licences): test photos only.
LOMIRI_TEST = {'16.04': ['Bridge_by_Sander_Klootwijk', 'Picture_0B_by_freespace', 'Picture_1A_by_freespace',
                         'Wine_by_Jakkub_Mede', 'free_by_Peter_Nerlich', 'friends_by_Aitzol_Berasategi',
                         'greentock_by_Peter_Nerlich'],
               '20.04': ['Kleiber_by_Lukas_Baubkus']}

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
             'rocket.jpg', 'ihc.png', 'logo.png']:  # page, moon, color, motorcycle: licence not stated
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
    target = fixtures if f'{pkg}__{name}' in HELD_OUT else out
    img.save(f'{target}/{pkg}__{name}.jpg', quality=88)
    n += 1
for release, names in LOMIRI_TEST.items():
    for name in names:
        img = Image.open(f'{src}/lomiri-wallpapers-{release}/usr/share/backgrounds/{name}.jpg').convert('RGB')
        img.thumbnail((320, 320), Image.LANCZOS)
        img.save(f'{fixtures}/lomiri-wallpapers-{release}__{name}.jpg', quality=88)

print(n, 'images written to', out, 'and', fixtures)
