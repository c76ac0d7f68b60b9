"""Field maize by view and by multi-crop answer, from the out-of-fold outputs of a sweep on a sources pack.

Reads research/oof/*.json files that keep every view (recipe/sweep.py VIEWS) and prints, per file, the PlantDoc
field maize figures of each single view and of two multi-crop answers named before the outputs were read:
  whole+centre    the leaf shares averaged over the recipe's own view and the centre 70 % square
  cover+centre    averaged over the centre square, the two end squares (together they cover the photo) and the
                  centre 70 % square
A multi-crop answer keeps the recipe's own view's P(not a leaf), as research/multicrop/combine.py does. The rule is
the app's without colour checks or ood (P(not a leaf) < 0.25 and class share >= the cut), as research/oof/from_sweep.py.

  PYTHONPATH=packages/vision python3 -m research.multicrop.oof_views packages/vision/research/oof/*_sources.json
"""
import json
import sys

import numpy as np

RULES = {'whole+centre': ['own', 'c70'], 'cover+centre': ['cc', 'e1', 'e2', 'c70']}


def answer(row, views, own):
    """(P over the 3 crop classes, P(not a leaf)) of a view or a multi-crop rule."""
    p_own = np.array(row['views'][own])
    names = [own if v == 'own' else v for v in views]
    shares = [np.array(row['views'][v][:3]) / sum(row['views'][v][:3]) for v in names]
    return np.mean(shares, 0), p_own[3]


def figures(rows, views, own, cut):
    n = answered = wrong = right = rust = rust_right = 0
    for r in rows:
        leaf, not_leaf = answer(r, views, own)
        true = ['common_rust', 'healthy', 'other_disease'].index(r['cls'])
        n += 1
        rust += true == 0
        if not_leaf < 0.25 and leaf.max() >= cut:
            answered += 1
            ok = leaf.argmax() == true
            right += ok
            wrong += not ok
            rust_right += ok and true == 0
    return dict(n=n, answered=answered, wrong=wrong, right=right, rust=rust, rust_right=rust_right)


def main(paths):
    print('| run | answer | at 0.5: right (rust found) | at 0.9: answered · confident wrong of answered · right '
          '· rust found |')
    print('| --- | --- | --- | --- |')
    for path in paths:
        doc = json.load(open(path))
        if 'views' not in doc:
            continue
        own = doc['view']
        rows = doc['field_maize']
        answers = [(v + (' (own)' if v == own else ''), [v]) for v in doc['views']] + list(RULES.items())
        for name, views in answers:
            a, b = figures(rows, views, own, 0.5), figures(rows, views, own, 0.9)
            share = b['wrong'] / max(1, b['answered'])
            print(f"| {doc['recipe']} s{doc['seed']} | {name} | {a['right']}/{a['n']} ({a['rust_right']}/{a['rust']}) "
                  f"| {b['answered'] / b['n']:.1%} · {share:.1%} ({b['wrong']}/{b['answered']}) · {b['right']} · "
                  f"{b['rust_right']}/{b['rust']} |")


if __name__ == '__main__':
    main(sys.argv[1:])
