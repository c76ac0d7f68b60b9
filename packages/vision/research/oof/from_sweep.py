"""The sweep's per-photo outputs (probs.npz of recipe/sweep.py, one per job of recipe/queue.py) → one compact JSON
per recipe and seed in this folder, and the by-source table of the model card.

Each JSON holds, for every fold network of that recipe and seed that finished: the PlantDoc field maize photos
of its held-out third (out of fold: `field_maize`, each photo scored by the one network that never saw it) and
the evaluation set's iBean field bean photos (`beans`, scored by every fold network; no fold network saw them).
Probabilities are softmax over common_rust, healthy, other_disease, not_leaf (the sweep's preprocessing: PIL,
160 px; no colour checks or ood score), rounded to 4 decimals. A sweep of a sources pack (recipe/pack.py --sources)
scores each photo on several views (sweep.py VIEWS); then `probs` is the recipe's own view (`view`) and each row also
has `views`: every view's probabilities (research/multicrop/oof_views.py compares them and multi-crop answers).

  PYTHONPATH=packages/vision python3 -m research.oof.from_sweep /tmp/sweep-probs/*.npz   # the npz files of probs.tar
  PYTHONPATH=packages/vision python3 -m research.oof.from_sweep --suffix _sources /tmp/sweep-probs/*.npz

--suffix names the files <recipe>_s<seed><suffix>.json, for runs on another pack of photos than a file already here
(an existing file is never overwritten by another run's outputs).
"""
import json
import os
import re
import sys
from collections import defaultdict

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
CLASSES = ['common_rust', 'healthy', 'other_disease', 'not_leaf']
CROP = {'plantdoc': 'maize', 'plantvillage': 'maize', 'ibean': 'bean'}
VIEW_OF = {'a224': 'cc'}  # a recipe's own view, where it is not the squashed whole photo (recipe/sweep.py)


def rows(z, prefix, key, fold):
    probs, labels, files = z[f'{prefix}_{key}_probs'], z[f'{prefix}_{key}_labels'], z[f'{prefix}_{key}_files']
    every = z[f'{prefix}_{key}_views'] if f'{prefix}_{key}_views' in z.files else None
    out = []
    for i, (p, y, f) in enumerate(zip(probs, labels, files)):
        source = os.path.basename(str(f)).split('__')[0]
        row = dict(file=str(f), cls=CLASSES[int(y)], source=source, crop=CROP[source], fold=fold,
                   probs=[round(float(v), 4) for v in p])
        if every is not None:
            row['views'] = {str(v): [round(float(x), 4) for x in every[i, j]] for j, v in enumerate(z['views'])}
        out.append(row)
    return out


def rule(items, cut):
    """The app's rule without colour checks or ood: confident when P(not a leaf) < 0.25 and class share >= cut."""
    n = answered = wrong = right = rust = rust_right = 0
    for it in items:
        p = np.array(it['probs'])
        leaf = p[:3] / p[:3].sum()
        ok = p[3] < 0.25 and leaf.max() >= cut
        true = CLASSES.index(it['cls'])
        n += 1
        rust += true == 0
        if ok:
            answered += 1
            if leaf.argmax() == true:
                right += 1
                rust_right += true == 0
            else:
                wrong += 1
    return dict(n=n, answered=answered, wrong=wrong, right=right, rust=rust, rust_right=rust_right)


def main(paths, suffix=''):
    runs = defaultdict(lambda: dict(field_maize=[], beans=[], folds=[], views=None))
    for path in paths:
        z = np.load(path)
        m = re.match(r'(.+)_s(\d+)_(fold\d|all)$', os.path.basename(path)[:-4])
        recipe, seed, split = m.group(1), int(m.group(2)), m.group(3)
        if not split.startswith('fold'):
            continue
        fold = int(split[-1])
        prefix = f'{recipe}_s{seed}_{split}'
        run = runs[(recipe, seed)]
        run['folds'].append(fold)
        if 'views' in z.files:
            run['views'] = [str(v) for v in z['views']]
        run['field_maize'] += rows(z, prefix, 'b_fold', fold)
        run['beans'] += rows(z, prefix, 'c_ibean_eval', fold)
    print('| recipe | seed | folds | field maize at 0.5: right (rust found) | at 0.9: answered / confident wrong '
          '| beans (mean of fold networks) at 0.5: right | at 0.9: answered / confident wrong |')
    for (recipe, seed), run in sorted(runs.items()):
        run['folds'].sort()
        doc = dict(recipe=recipe, seed=seed, folds=run['folds'], classes=CLASSES,
                   **({'view': VIEW_OF.get(recipe, 'sq'), 'views': run['views']} if run['views'] else {}),
                   field_maize=sorted(run['field_maize'], key=lambda r: r['file']),
                   beans=sorted(run['beans'], key=lambda r: (r['fold'], r['file'])))
        target = os.path.join(HERE, f'{recipe}_s{seed}{suffix}.json')
        if os.path.exists(target) and json.load(open(target)) != json.loads(json.dumps(doc)):
            raise SystemExit(f'{target} holds another run: name this one with --suffix')
        with open(target, 'w') as f:
            json.dump(doc, f, separators=(',', ':'))
        fm5, fm9 = rule(run['field_maize'], 0.5), rule(run['field_maize'], 0.9)
        b5, b9 = rule(run['beans'], 0.5), rule(run['beans'], 0.9)
        k = len(run['folds'])
        print(f"| {recipe} | {seed} | {','.join(map(str, run['folds']))} | {fm5['right']}/{fm5['n']} "
              f"({fm5['rust_right']}/{fm5['rust']}) | {fm9['answered'] / fm9['n']:.1%} / "
              f"{fm9['wrong'] / max(1, fm9['answered']):.1%} ({fm9['wrong']}/{fm9['answered']}) | "
              f"{b5['right'] / k:.1f}/{b5['n'] // k} | {b9['answered'] / b9['n']:.1%} / "
              f"{b9['wrong'] / max(1, b9['answered']):.1%} ({b9['wrong']}/{b9['answered']}) |")


if __name__ == '__main__':
    args = sys.argv[1:]
    if args[:1] == ['--suffix']:
        main(args[2:], args[1])
    else:
        main(args)
