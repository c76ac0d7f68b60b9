"""Validation by source on frozen features (the headline numbers of the model card).

  PYTHONPATH=packages/vision python3 -m trainer.validate --cache DIR [--json OUT]

DIR holds leaves.json/.f32 (the frozen backbone's features of every photo of datasets/rust3, original and
mirrored, written by src/features.ts from the server's sharp decoding), nonleaf.json/.f32 (the training
negatives, five views each) and eval.json (the fixed evaluation set). src/cli/validate.ts writes them once.
  (a) lab maize → field beans: trained on PlantVillage photos (+ negatives) only, scored on every iBean photo
  (b) PlantDoc maize, 5-fold: trained on the other folds + all other photos, scored on the held-out fold
  (c) held-out iBean: trained on everything except the evaluation set, scored on its iBean photos (and
      5-fold over all iBean photos)
A photo counts as correct under the served rule only when it gets a confident diagnosis of its class.
"""
import argparse
import json
import os

import numpy as np
import torch

from .head import LEAF_CLASSES, OodScore, fit_linear, fit_temperature, logits_of, sample_weights, softmax
from .model import CLASSES

NOT_LEAF = 3
LEAF_VIEWS = ('orig', 'hflip')
NONLEAF_VIEWS = ('orig', 'crop1', 'crop2', 'crop3', 'hflip')


def load_features(cache, name):
    """(meta, features views×N×dims) as written by src/features.ts, or (None, None) when absent."""
    meta_path = os.path.join(cache, f'{name}.json')
    if not os.path.exists(meta_path):
        return None, None
    meta = json.load(open(meta_path))
    feats = np.fromfile(os.path.join(cache, f'{name}.f32'), dtype='<f4')
    return meta, feats.reshape(len(meta['views']), meta['count'], meta['dims'])


def source_of(item):
    return os.path.basename(item['file']).split('__')[0]


class Data:
    def __init__(self, cache):
        self.meta, self.leaf = load_features(cache, 'leaves')
        self.items = self.meta['items']
        _, self.neg = load_features(cache, 'nonleaf')
        self.neg = self.neg.transpose(1, 0, 2)  # photos × views × dims
        self.y = np.array([CLASSES.index(i['label']) for i in self.items])
        self.source = np.array([source_of(i) for i in self.items])
        eval_meta = json.load(open(os.path.join(cache, 'eval.json')))
        eval_names = {os.path.basename(i['file']) for i in eval_meta['items']}
        self.in_eval = np.array([os.path.basename(i['file']) in eval_names for i in self.items])


def train_head(d, train_idx, recipe):
    """Fits the head on the given leaf photos (all views) plus every negative view."""
    views = recipe.get('views', len(LEAF_VIEWS))
    X = np.concatenate([d.leaf[v, train_idx] for v in range(views)] + [d.neg.reshape(-1, d.neg.shape[-1])])
    y = np.concatenate([d.y[train_idx]] * views + [np.full(d.neg.shape[0] * d.neg.shape[1], NOT_LEAF)])
    groups = np.concatenate([d.source[train_idx]] * views + [np.full(d.neg.shape[0] * d.neg.shape[1], 'negatives')])
    w = sample_weights(y, groups, recipe.get('field_boost', 1.0), ('ibean', 'plantdoc'))
    w[groups == 'negatives'] *= recipe.get('neg_weight', 1.0)
    head = fit_linear(X, y, w, l2=recipe.get('l2', 1e-3))
    leaf_mask = y < LEAF_CLASSES
    ood = OodScore(X[leaf_mask], y[leaf_mask], k=recipe.get('ood_k', 64))
    return head, ood


def served(probs, ood, rule):
    """The server's answer from calibrated probabilities: class index, or -1 unsure, or -2 not a leaf."""
    p_not_leaf = probs[:, NOT_LEAF]
    leaf = probs[:, :LEAF_CLASSES] / np.maximum(1 - p_not_leaf, 1e-9)[:, None]
    best = leaf.argmax(1)
    conf = leaf.max(1)
    out = best.copy()
    unsure = (conf < rule['unsure_below']) | (p_not_leaf > rule['unsure_not_leaf_above']) | (ood > rule['ood_unsure'])
    out[unsure] = -1
    out[(p_not_leaf >= rule['not_leaf']) | (ood > rule['ood_not_leaf'])] = -2
    return out, conf


def score(d, test_idx, head, ood, rule, temperature):
    X = d.leaf[0, test_idx]
    logits = logits_of(X, head)
    probs = softmax(logits / temperature)
    answer, conf = served(probs, ood(X), rule)
    y = d.y[test_idx]
    argmax = probs[:, :LEAF_CLASSES].argmax(1)
    rust = y == 0
    return {
        'photos': int(len(y)),
        'accuracy': round(float((answer == y).mean()), 4),
        'argmax_accuracy': round(float((argmax == y).mean()), 4),
        'rust_recall': round(float((answer[rust] == 0).mean()), 4) if rust.any() else None,
        'rust_recall_argmax': round(float((argmax[rust] == 0).mean()), 4) if rust.any() else None,
        'unsure': round(float((answer == -1).mean()), 4),
        'not_leaf': round(float((answer == -2).mean()), 4),
    }, logits, ood(X)


def folds(idx, labels, k, seed=0):
    rng = np.random.default_rng(seed)
    out = [[] for _ in range(k)]
    for c in np.unique(labels):
        members = idx[labels == c]
        members = members[rng.permutation(len(members))]
        for i, m in enumerate(members):
            out[i % k].append(m)
    return [np.array(sorted(f)) for f in out]


def merge(parts):
    n = sum(p['photos'] for p in parts)
    merged = {'photos': n}
    for key in ('accuracy', 'argmax_accuracy', 'unsure', 'not_leaf'):
        merged[key] = round(sum(p[key] * p['photos'] for p in parts) / n, 4)
    return merged


def run(d, recipe, rule, temperature, k=5):
    every = np.arange(len(d.items))
    results, held_out = {}, []  # held_out: (logits, ood, labels) of photos from by-source validation

    lab = every[d.source == 'plantvillage']
    ibean = every[d.source == 'ibean']
    head, ood = train_head(d, lab, recipe)
    results['a_lab_to_field_beans'], _, _ = score(d, ibean, head, ood, rule, temperature)

    plantdoc = every[d.source == 'plantdoc']
    parts, rust_hits, rust_total, rust_hits_argmax = [], 0, 0, 0
    for fold in folds(plantdoc, d.y[plantdoc], k):
        head, ood = train_head(d, np.setdiff1d(every, fold), recipe)
        r, logits, o = score(d, fold, head, ood, rule, temperature)
        parts.append(r)
        held_out.append((logits, o, d.y[fold]))
        n_rust = int((d.y[fold] == 0).sum())
        rust_total += n_rust
        rust_hits += round(r['rust_recall'] * n_rust) if n_rust else 0
        rust_hits_argmax += round(r['rust_recall_argmax'] * n_rust) if n_rust else 0
    results['b_plantdoc_kfold'] = {**merge(parts), 'rust_recall': round(rust_hits / rust_total, 4),
                                   'rust_recall_argmax': round(rust_hits_argmax / rust_total, 4)}

    head, ood = train_head(d, every[~d.in_eval], recipe)
    field_eval = every[d.in_eval & (d.source == 'ibean')]
    results['c_ibean_eval_set'], logits, o = score(d, field_eval, head, ood, rule, temperature)
    held_out.append((logits, o, d.y[field_eval]))
    results['eval_set'], _, _ = score(d, every[d.in_eval], head, ood, rule, temperature)
    results['eval_set_lab'], _, _ = score(d, every[d.in_eval & (d.source == 'plantvillage')], head, ood, rule,
                                          temperature)

    parts = []
    for fold in folds(ibean, d.y[ibean], k, seed=1):
        head, ood = train_head(d, np.setdiff1d(every, fold), recipe)
        r, logits, o = score(d, fold, head, ood, rule, temperature)
        parts.append(r)
        held_out.append((logits, o, d.y[fold]))
    results['c_ibean_kfold'] = merge(parts)
    return results, held_out


DEFAULT_RECIPE = {'views': 2, 'field_boost': 2.0, 'l2': 1e-3, 'neg_weight': 1.0, 'ood_k': 64}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--cache', required=True)
    ap.add_argument('--rule', required=True, help='JSON: temperature, unsure_below, … (the model card thresholds)')
    ap.add_argument('--recipe', default='{}')
    ap.add_argument('--json')
    args = ap.parse_args()
    torch.set_num_threads(int(os.environ.get('KUTU_TRAIN_THREADS', '2')))
    d = Data(args.cache)
    rule = json.loads(args.rule)
    recipe = {**DEFAULT_RECIPE, **json.loads(args.recipe)}
    results, held_out = run(d, recipe, rule, rule['temperature'])
    logits = np.concatenate([h[0] for h in held_out])
    labels = np.concatenate([h[2] for h in held_out])
    results['held_out_temperature'] = fit_temperature(logits[:, :LEAF_CLASSES], labels)
    print(json.dumps(results))
    if args.json:
        np.savez(args.json, logits=logits, ood=np.concatenate([h[1] for h in held_out]), labels=labels)


if __name__ == '__main__':
    main()
