"""Writes the two project-made non-leaf test photos (CC0, made here): a rendered document and RGB noise.

  PYTHONPATH=packages/vision /usr/bin/python3 -m provenance.own_fixtures packages/vision/test/fixtures/nonleaf
"""
import sys

import numpy as np
from PIL import Image, ImageDraw, ImageFont

out = sys.argv[1]
rng = np.random.default_rng(7)
img = Image.new('RGB', (300, 400), (250, 248, 240))
d = ImageDraw.Draw(img)
f = ImageFont.truetype('/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf', 13)
fb = ImageFont.truetype('/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf', 18)
d.text((20, 18), 'Invoice 2026-114', font=fb, fill=(20, 20, 20))
words = ('maize beans farm cooperative delivery seed fertiliser total amount paid balance kampala nairobi market '
         'season').split()
y = 55
while y < 370:
    d.text((20, y), ' '.join(rng.choice(words, 6)).capitalize(), font=f, fill=(40, 40, 40))
    y += 20
img.save(f'{out}/kutu-own__document.png')
Image.fromarray(rng.integers(0, 256, (240, 320, 3), dtype=np.uint8)).save(f'{out}/kutu-own__noise.png')
