"""Compares multi-crop combination rules on view dumps (dump_views.ts), by source.

  PYTHONPATH=packages/vision python3 -m research.multicrop.combine DUMP.jsonl...

Each line of a dump is one photo scored by one model (`tag`). A photo counts as correct only with a
confident diagnosis of its class (the served rule of src/decide.ts `decide`, v1.2's thresholds).
"""
import json
import math
import sys

PASS = dict(plant=1, green=1, contrast=1)
CLASSES = ['common_rust', 'healthy', 'other_disease']
T = dict(notLeaf=0.35, unsureBelow=0.5, unsureNotLeafAbove=0.25, minPlantFraction=0.02, minGreenFraction=0.005,
         minContrast=0.02, oodUnsureAbove=7.75, oodNotLeafAbove=40)


def decide(p4, colours, ood, t=T):
    """Mirror of decide(): returns 'not_leaf', 'unsure' or a class."""
    pnl = p4[3]
    gate = min(1, colours['plant'] / t['minPlantFraction'], colours['green'] / t['minGreenFraction'],
               colours['contrast'] / t['minContrast'])
    if pnl >= t['notLeaf'] or gate < 1 or (ood or 0) > t['oodNotLeafAbove']:
        return 'not_leaf'
    leaf = max(1 - pnl, 1e-9)
    probs = [p / leaf for p in p4[:3]]
    best = max(range(3), key=lambda i: probs[i])
    if probs[best] < t['unsureBelow'] or pnl > t['unsureNotLeafAbove'] or (ood or 0) > t['oodUnsureAbove']:
        return 'unsure'
    return CLASSES[best]


def tiles(views, kinds):
    return [v for k, v in views.items() if any(k.startswith(x) for x in kinds)]


def leaf3(p4):
    leaf = max(1 - p4[3], 1e-9)
    return [p / leaf for p in p4[:3]]


def combine(rec, rule):
    """Returns (p4, ood) of the combined answer. The not-a-leaf probability and ood stay the whole photo's."""
    views = rec['views']
    whole = views['whole']
    p4, ood = list(whole['p']), whole['ood']
    kind = rule['kind']
    if kind == 'whole':
        probs = leaf3(p4)
    elif kind == 'mean':
        vs = [whole] + tiles(views, rule['views'])
        probs = [sum(leaf3(v['p'])[i] for v in vs) / len(vs) for i in range(3)]
    elif kind == 'logmean':
        vs = [whole] + tiles(views, rule['views'])
        logs = [sum(math.log(max(leaf3(v['p'])[i], 1e-6)) for v in vs) / len(vs) for i in range(3)]
        m = max(logs)
        e = [math.exp(x - m) for x in logs]
        probs = [x / sum(e) for x in e]
    elif kind == 'maxrust':
        # whole photo's answer, unless some tile is confident of rust: then that tile's probabilities
        probs = leaf3(p4)
        best = None
        for v in tiles(views, rule['views']):
            q = leaf3(v['p'])
            if v['p'][3] < rule.get('tile_nl', 0.35) and q[0] >= rule['cut'] and (best is None or q[0] > best[0]):
                best = q
        if best is not None:
            probs = best
    else:
        raise ValueError(kind)
    if 'rust_bias' in rule:
        logits = [math.log(max(p, 1e-9)) for p in probs]
        logits[0] += rule['rust_bias']
        m = max(logits)
        e = [math.exp(x - m) for x in logits]
        probs = [x / sum(e) for x in e]
    leaf = 1 - p4[3]
    return [p * leaf for p in probs] + [p4[3]], ood


def score(recs, rule):
    n = ok = rust_n = rust_ok = unsure = 0
    for r in recs:
        p4, ood = combine(r, rule)
        ans = decide(p4, r.get('colours', PASS), ood)
        if r['label'] == 'not_leaf':
            n += 1
            ok += ans in ('not_leaf', 'unsure')
            continue
        n += 1
        ok += ans == r['label']
        unsure += ans == 'unsure'
        if r['label'] == 'common_rust':
            rust_n += 1
            rust_ok += ans == 'common_rust'
    return dict(n=n, acc=ok / max(n, 1), ok=ok, rust=f'{rust_ok}/{rust_n}', rust_recall=rust_ok / max(rust_n, 1),
                unsure=unsure / max(n, 1))


def load(files):
    recs = []
    for f in files:
        recs += [json.loads(line) for line in open(f)]
    return recs


def groups(recs):
    g = {}
    for r in recs:
        if r['source'] == 'plantdoc':
            g.setdefault(f"b_{r['tag']}", []).append(r)
        elif r['source'] == 'ibean':
            g.setdefault(f"c_{r['tag']}", []).append(r)
        elif r['source'] == 'nonleaf':
            g.setdefault(f"nonleaf_{r['tag']}", []).append(r)
        else:
            g.setdefault(f"lab_{r['tag']}", []).append(r)
    return g


RULES = [dict(kind='whole')]
for views in (['centre'], ['g2'], ['g3'], ['centre', 'g2'], ['centre', 'g2', 'g3']):
    RULES.append(dict(kind='mean', views=views))
    RULES.append(dict(kind='logmean', views=views))
    for cut in (0.5, 0.6, 0.7, 0.8, 0.9):
        RULES.append(dict(kind='maxrust', views=views, cut=cut))
RULES.append(dict(kind='mean', views=['hflip']))
RULES.append(dict(kind='mean', views=['hflip', 'centre']))
for b in (0.25, 0.5, 1.0, 1.5):
    RULES.append(dict(kind='whole', rust_bias=b))
    RULES.append(dict(kind='mean', views=['centre', 'g2'], rust_bias=b))

if __name__ == '__main__':
    g = groups(load(sys.argv[1:]))
    keys = sorted(g)
    print('rule | ' + ' | '.join(f'{k} ({len(g[k])})' for k in keys))
    for rule in RULES:
        cells = []
        for k in keys:
            s = score(g[k], rule)
            cell = f"{s['acc']*100:.1f}"
            if k.startswith('b_') or k.startswith('c_'):
                cell += f" r{s['rust']}"
            cells.append(cell)
        print(json.dumps(rule) + ' | ' + ' | '.join(cells))
