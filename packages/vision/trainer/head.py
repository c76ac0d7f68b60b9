"""The classifier head on frozen features: a linear layer (so class activation maps stay exact), its
temperature, and an out-of-distribution score (distance to the nearest leaf class)."""
import numpy as np
import torch

LEAF_CLASSES = 3  # common_rust, healthy, other_disease; index 3 is not_leaf


def sample_weights(labels, groups, field_boost=1.0, field_groups=()):
    """Every (group, class) cell weighs the same in total, so the 3,555 lab photos cannot drown the field
    sources; field groups get `field_boost` times more."""
    labels = np.asarray(labels)
    groups = np.asarray(groups)
    w = np.zeros(len(labels), np.float64)
    for g in np.unique(groups):
        for c in np.unique(labels[groups == g]):
            m = (groups == g) & (labels == c)
            w[m] = 1.0 / m.sum()
        if g in field_groups:
            w[groups == g] *= field_boost
    return (w / w.mean()).astype(np.float32)


def fit_linear(X, y, weights, num_classes=4, l2=1e-3, steps=100, init=None):
    """Weighted multinomial logistic regression on standardised features (full-batch L-BFGS). Returns
    (W, b) in the raw feature space: logits = X @ W.T + b."""
    X = torch.from_numpy(np.asarray(X, np.float32))
    mu, sd = X.mean(0), X.std(0) + 1e-3
    Z = (X - mu) / sd
    y = torch.from_numpy(np.asarray(y, np.int64))
    w = torch.from_numpy(np.asarray(weights, np.float32))
    A = torch.zeros(num_classes, X.shape[1], requires_grad=True)
    c = torch.zeros(num_classes, requires_grad=True)
    if init is not None:  # warm start from raw-space weights
        with torch.no_grad():
            A.copy_(torch.from_numpy(init[0]) * sd)
            c.copy_(torch.from_numpy(init[1]) + (torch.from_numpy(init[0]) * mu).sum(1))
    opt = torch.optim.LBFGS([A, c], lr=1, max_iter=steps, history_size=20, line_search_fn='strong_wolfe')

    def closure():
        opt.zero_grad()
        logits = Z @ A.T + c
        loss = (torch.nn.functional.cross_entropy(logits, y, reduction='none', label_smoothing=0.05) * w).mean()
        loss = loss + l2 * (A ** 2).sum()
        loss.backward()
        return loss

    opt.step(closure)
    with torch.no_grad():
        W = (A / sd).numpy()
        b = (c - (A * mu / sd).sum(1)).numpy()
    return W.astype(np.float32), b.astype(np.float32)


def logits_of(X, head):
    W, b = head
    return (torch.from_numpy(np.asarray(X, np.float32)) @ torch.from_numpy(W).T).numpy() + b


def softmax(z):
    z = z - z.max(1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(1, keepdims=True)


def fit_temperature(logits, labels):
    """The temperature that minimises the negative log-likelihood of held-out logits (grid search)."""
    best = (np.inf, 1.0)
    for t in np.exp(np.linspace(np.log(0.25), np.log(8), 141)):
        p = softmax(logits / t)
        nll = -np.log(p[np.arange(len(labels)), labels] + 1e-12).mean()
        best = min(best, (nll, float(t)))
    return best[1]


class OodScore:
    """Squared Mahalanobis distance (shared covariance, top-k principal directions, whitened) from a
    feature vector to the nearest leaf-class mean. In the graph: min_c ||(f - m_c) P||²."""

    def __init__(self, X, y, k=64):
        # torch's BLAS, not numpy's (Debian's numpy may use the slow reference BLAS)
        X = torch.from_numpy(np.asarray(X, np.float32)).double()
        y = torch.from_numpy(np.asarray(y, np.int64))
        means = torch.stack([X[y == c].mean(0) for c in range(LEAF_CLASSES)])
        centred = X - means[y]
        cov = centred.T @ centred / len(X)
        vals, vecs = torch.linalg.eigh(cov)
        order = torch.argsort(vals, descending=True)[:k]
        self.P = (vecs[:, order] / torch.sqrt(vals[order] + 1e-6)).float().numpy()  # 1280×k
        self.means = means.float().numpy()

    def __call__(self, X):
        X = torch.from_numpy(np.asarray(X, np.float32))
        P = torch.from_numpy(self.P)
        d = [(((X - torch.from_numpy(m)) @ P) ** 2).sum(1) for m in self.means]
        return (torch.stack(d, 1).min(1).values / P.shape[1]).numpy()
