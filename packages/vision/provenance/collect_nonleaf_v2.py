"""Adds non-leaf photos of people, animals, rooms, screens, signs and text (Debian 12 packages) to
negatives/ (training) and test/fixtures/nonleaf/ (held out, never trained on). See negatives/SOURCES.md.

  mkdir -p /tmp/debs /tmp/ext && cd /tmp/debs && apt-get download opencv-doc mate-backgrounds openshot-qt-doc
  for f in *.deb; do dpkg -x "$f" /tmp/ext/"${f%%_*}"; done
  PYTHONPATH=packages/vision /usr/bin/python3 -m provenance.collect_nonleaf_v2 /tmp/ext packages/vision
Each image: EXIF-rotated, RGB, longer side at most 320 px, JPEG quality 90. Photos that show leaves,
grass, flowers or fruit on a plant were not picked. Pairs of one scene (left/right views, two
exposures, two renders) go to the test side only, so the test photos share no scene with the negatives.
"""
import os
import sys

from PIL import Image, ImageOps

src, root = sys.argv[1], sys.argv[2]
OPENCV = 'opencv-doc/usr/share/doc/opencv-doc/examples'
MATE = 'mate-backgrounds/usr/share/backgrounds/mate'
OPENSHOT = 'openshot-qt-doc/usr/share/doc/openshot-qt/html/_images'
TRAIN = {
    'opencv-doc': [f'{OPENCV}/data/{n}' for n in (
        'messi5.jpg', 'baboon.jpg', 'building.jpg', 'home.jpg', 'board.jpg', 'box_in_scene.png',
        'cards.png', 'notes.png',
        'smarties.png', 'sudoku.png', 'starry_night.jpg', 'stuff.jpg',
        'licenseplate_motion.jpg', 'chicky_512.png', 'blox.jpg', 'ellipses.jpg', 'ml.png',
        'rubberwhale1.png', 'digits.png', 'LinuxLogo.jpg')]
    + [f'{OPENCV}/text/scenetext0{i}.jpg' for i in (1, 2, 3)],
    'mate-backgrounds': [f'{MATE}/abstract/Elephants.jpg', f'{MATE}/nature/Storm.jpg',
                         f'{MATE}/nature/Aqua.jpg',
                         f'{MATE}/nature/Wood.jpg', f'{MATE}/abstract/Silk.png', f'{MATE}/abstract/Waves.png'],
    'openshot-qt-doc': [f'{OPENSHOT}/{n}.jpg' for n in (
        'main-window', 'ui-example', 'title-editor', 'profiles', 'animated-title', 'clip-transform',
        'quick-start-play', 'built-in-tutorial')],
}
TEST = {
    'opencv-doc': [f'{OPENCV}/data/{n}' for n in (
        'basketball2.png', 'leuvenB.jpg', 'HappyFish.jpg', 'text_motion.jpg', 'right01.jpg', 'pic3.png',
        'Blender_Suzanne2.jpg', 'aero3.jpg', 'graf3.png', 'WindowsLogo.jpg', 'imageTextR.png')]
    + [f'{OPENCV}/text/scenetext0{i}.jpg' for i in (4, 5, 6)],
    'openshot-qt-doc': [f'{OPENSHOT}/{n}.jpg' for n in ('file-menu', 'tracks', 'quick-start-export')],
}


def save(package, path, folder):
    im = ImageOps.exif_transpose(Image.open(os.path.join(src, path))).convert('RGB')
    im.thumbnail((320, 320), Image.LANCZOS)
    name = f'{package}__{os.path.splitext(os.path.basename(path))[0]}.jpg'
    im.save(os.path.join(root, folder, name), 'JPEG', quality=90)
    return name


for package, paths in TRAIN.items():
    for p in paths:
        print('negatives', save(package, p, 'negatives'))
for package, paths in TEST.items():
    for p in paths:
        print('fixture', save(package, p, 'test/fixtures/nonleaf'))
