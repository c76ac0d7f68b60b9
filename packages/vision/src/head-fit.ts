/**
 * The head refit of a KutuLeafNet in plain TypeScript (docs/decisions/0029), the same recipe as
 * trainer/head.py: a weighted multinomial logistic regression (softmax, label smoothing 0.05, L2 on the
 * standardised weights) fitted by full-batch L-BFGS on the frozen backbone's pooled features, and the
 * out-of-distribution statistics (class means, and the top-k whitened principal directions of the
 * shared within-class covariance). No Python, no native code: Float32Array/Float64Array loops.
 */
import { symmetricEigen } from './eigen.ts';

/** Every (group, class) cell weighs the same in total; field groups count `fieldBoost` times more (head.py). */
export function sampleWeights(
  labels: ArrayLike<number>,
  groups: readonly string[],
  fieldBoost = 1,
  fieldGroups: readonly string[] = [],
): Float32Array {
  const cells = new Map<string, number>();
  for (let i = 0; i < labels.length; i++) {
    const key = `${groups[i]}\u0000${labels[i]}`;
    cells.set(key, (cells.get(key) ?? 0) + 1);
  }
  const w = new Float64Array(labels.length);
  let sum = 0;
  for (let i = 0; i < labels.length; i++) {
    w[i] = 1 / cells.get(`${groups[i]}\u0000${labels[i]}`)!;
    if (fieldGroups.includes(groups[i])) w[i] *= fieldBoost;
    sum += w[i];
  }
  const mean = sum / (labels.length || 1);
  return Float32Array.from(w, (v) => v / mean);
}

export interface LinearFit {
  /** classes × dims, row-major, in the raw feature space: logits = W·x + b. */
  weight: Float32Array;
  bias: Float32Array;
  /** The objective at the end, and how many times it was evaluated. */
  loss: number;
  evaluations: number;
  iterations: number;
}

export interface FitOptions {
  classes: number;
  l2?: number;
  /** L-BFGS iterations (head.py: max_iter=100). */
  steps?: number;
  labelSmoothing?: number;
  /** Warm start from raw-space weights (the active model's head). */
  init?: { weight: Float32Array; bias: Float32Array };
  onStep?: (iteration: number, loss: number) => void;
  signal?: AbortSignal;
}

/**
 * Weighted multinomial logistic regression on standardised features, by full-batch L-BFGS (history 20,
 * backtracking Armijo line search). `x` is n × dims row-major; labels in 0..classes-1.
 */
export function fitLinear(
  x: Float32Array,
  y: ArrayLike<number>,
  weights: Float32Array,
  dims: number,
  opts: FitOptions,
): LinearFit {
  const n = y.length;
  const k = opts.classes;
  const l2 = opts.l2 ?? 1e-3;
  const eps = opts.labelSmoothing ?? 0.05;
  const steps = opts.steps ?? 100;
  if (x.length !== n * dims) throw new Error(`features: ${x.length} values for ${n} × ${dims}`);
  // Standardise (torch's std is the unbiased one), as head.py does.
  const mu = new Float64Array(dims);
  const sd = new Float64Array(dims);
  for (let i = 0; i < n; i++) for (let j = 0; j < dims; j++) mu[j] += x[i * dims + j];
  for (let j = 0; j < dims; j++) mu[j] /= n || 1;
  for (let i = 0; i < n; i++)
    for (let j = 0; j < dims; j++) {
      const d = x[i * dims + j] - mu[j];
      sd[j] += d * d;
    }
  for (let j = 0; j < dims; j++) sd[j] = Math.sqrt(sd[j] / Math.max(1, n - 1)) + 1e-3;
  const z = new Float32Array(n * dims);
  for (let i = 0; i < n; i++) for (let j = 0; j < dims; j++) z[i * dims + j] = (x[i * dims + j] - mu[j]) / sd[j];

  // Parameters: A (k × dims) then c (k).
  const size = k * dims + k;
  const theta = new Float64Array(size);
  if (opts.init) {
    for (let c = 0; c < k; c++) {
      let shift = 0;
      for (let j = 0; j < dims; j++) {
        theta[c * dims + j] = opts.init.weight[c * dims + j] * sd[j];
        shift += opts.init.weight[c * dims + j] * mu[j];
      }
      theta[k * dims + c] = opts.init.bias[c] + shift;
    }
  }
  let evaluations = 0;
  const logits = new Float64Array(k);
  const objective = (p: Float64Array, grad: Float64Array): number => {
    evaluations++;
    grad.fill(0);
    let loss = 0;
    for (let i = 0; i < n; i++) {
      const row = i * dims;
      let max = -Infinity;
      for (let c = 0; c < k; c++) {
        let s = p[k * dims + c];
        const a = c * dims;
        for (let j = 0; j < dims; j++) s += p[a + j] * z[row + j];
        logits[c] = s;
        if (s > max) max = s;
      }
      let total = 0;
      for (let c = 0; c < k; c++) total += Math.exp(logits[c] - max);
      const logTotal = Math.log(total) + max;
      const wi = weights[i] / n;
      for (let c = 0; c < k; c++) {
        const target = (c === y[i] ? 1 - eps : 0) + eps / k;
        const logp = logits[c] - logTotal;
        loss -= wi * target * logp;
        const g = wi * (Math.exp(logp) - target);
        if (g === 0) continue;
        grad[k * dims + c] += g;
        const a = c * dims;
        for (let j = 0; j < dims; j++) grad[a + j] += g * z[row + j];
      }
    }
    for (let j = 0; j < k * dims; j++) {
      loss += l2 * p[j] * p[j];
      grad[j] += 2 * l2 * p[j];
    }
    return loss;
  };

  const history = 20;
  const sList: Float64Array[] = [];
  const yList: Float64Array[] = [];
  const rhos: number[] = [];
  let grad = new Float64Array(size);
  let loss = objective(theta, grad);
  const dir = new Float64Array(size);
  const alphas = new Float64Array(history);
  const trial = new Float64Array(size);
  let trialGrad = new Float64Array(size);
  let iterations = 0;
  const dot = (a: Float64Array, b: Float64Array) => {
    let s = 0;
    for (let i = 0; i < a.length; i++) s += a[i] * b[i];
    return s;
  };
  for (; iterations < steps; iterations++) {
    opts.signal?.throwIfAborted();
    let gmax = 0;
    for (const g of grad) gmax = Math.max(gmax, Math.abs(g));
    if (gmax < 1e-7) break;
    // Two-loop recursion: dir = −H·grad.
    for (let i = 0; i < size; i++) dir[i] = -grad[i];
    for (let m = sList.length - 1; m >= 0; m--) {
      alphas[m] = rhos[m] * dot(sList[m], dir);
      const ym = yList[m];
      for (let i = 0; i < size; i++) dir[i] -= alphas[m] * ym[i];
    }
    if (sList.length > 0) {
      const last = sList.length - 1;
      const gamma = dot(sList[last], yList[last]) / dot(yList[last], yList[last]);
      for (let i = 0; i < size; i++) dir[i] *= gamma;
    }
    for (let m = 0; m < sList.length; m++) {
      const beta = rhos[m] * dot(yList[m], dir);
      const sm = sList[m];
      for (let i = 0; i < size; i++) dir[i] += (alphas[m] - beta) * sm[i];
    }
    let slope = dot(grad, dir);
    if (slope >= 0) {
      // Not a descent direction (numerical trouble): restart from the gradient.
      sList.length = yList.length = rhos.length = 0;
      for (let i = 0; i < size; i++) dir[i] = -grad[i];
      slope = dot(grad, dir);
    }
    // First step as torch's L-BFGS: min(1, 1/‖g‖₁) before any curvature is known.
    let step = 1;
    if (sList.length === 0) {
      let g1 = 0;
      for (const g of grad) g1 += Math.abs(g);
      step = Math.min(1, 1 / g1);
    }
    let trialLoss = Number.POSITIVE_INFINITY;
    for (let tries = 0; tries < 30; tries++) {
      for (let i = 0; i < size; i++) trial[i] = theta[i] + step * dir[i];
      trialLoss = objective(trial, trialGrad);
      if (trialLoss <= loss + 1e-4 * step * slope) break;
      step *= 0.5;
    }
    if (!(trialLoss < loss)) break;
    const s = new Float64Array(size);
    const yv = new Float64Array(size);
    for (let i = 0; i < size; i++) {
      s[i] = trial[i] - theta[i];
      yv[i] = trialGrad[i] - grad[i];
    }
    const sy = dot(s, yv);
    if (sy > 1e-10) {
      if (sList.length === history) {
        sList.shift();
        yList.shift();
        rhos.shift();
      }
      sList.push(s);
      yList.push(yv);
      rhos.push(1 / sy);
    }
    const change = loss - trialLoss;
    theta.set(trial);
    [grad, trialGrad] = [trialGrad, grad];
    loss = trialLoss;
    opts.onStep?.(iterations + 1, loss);
    if (change < 1e-9) {
      iterations++;
      break;
    }
  }
  const weight = new Float32Array(k * dims);
  const bias = new Float32Array(k);
  for (let c = 0; c < k; c++) {
    let shift = 0;
    for (let j = 0; j < dims; j++) {
      weight[c * dims + j] = theta[c * dims + j] / sd[j];
      shift += (theta[c * dims + j] * mu[j]) / sd[j];
    }
    bias[c] = theta[k * dims + c] - shift;
  }
  return { weight, bias, loss, evaluations, iterations };
}

/** Row-major logits of raw features: n × classes. */
export function linearLogits(x: Float32Array, dims: number, weight: Float32Array, bias: Float32Array): Float32Array {
  const k = bias.length;
  const n = x.length / dims;
  const out = new Float32Array(n * k);
  for (let i = 0; i < n; i++)
    for (let c = 0; c < k; c++) {
      let s = bias[c];
      for (let j = 0; j < dims; j++) s += weight[c * dims + j] * x[i * dims + j];
      out[i * k + c] = s;
    }
  return out;
}

export interface OodStatistics {
  /** dims × k, row-major: the top-k principal directions of the within-class covariance, whitened. */
  projection: Float32Array;
  k: number;
  /** classes × dims. */
  means: Float32Array;
}

/**
 * The statistics of the served ood score (head.py's OodScore): the squared Mahalanobis distance of a
 * photo's pooled features to the nearest leaf-class mean over the top-k principal directions.
 */
export function oodStatistics(
  x: Float32Array,
  y: ArrayLike<number>,
  dims: number,
  classes: number,
  k: number,
  signal?: AbortSignal,
): OodStatistics {
  const n = y.length;
  const means = new Float64Array(classes * dims);
  const counts = new Float64Array(classes);
  for (let i = 0; i < n; i++) {
    counts[y[i]]++;
    for (let j = 0; j < dims; j++) means[y[i] * dims + j] += x[i * dims + j];
  }
  for (let c = 0; c < classes; c++) {
    if (counts[c] === 0) throw new Error(`no training photo of class ${c}: the ood statistics need every leaf class`);
    for (let j = 0; j < dims; j++) means[c * dims + j] /= counts[c];
  }
  // Upper triangle of Σ (x − m_y)(x − m_y)ᵀ, then mirrored.
  const cov = new Float64Array(dims * dims);
  const centred = new Float64Array(dims);
  for (let i = 0; i < n; i++) {
    if (i % 256 === 0) signal?.throwIfAborted();
    for (let j = 0; j < dims; j++) centred[j] = x[i * dims + j] - means[y[i] * dims + j];
    for (let a = 0; a < dims; a++) {
      const ca = centred[a];
      if (ca === 0) continue;
      const row = a * dims;
      for (let b = a; b < dims; b++) cov[row + b] += ca * centred[b];
    }
  }
  for (let a = 0; a < dims; a++)
    for (let b = a; b < dims; b++) {
      const v = cov[a * dims + b] / n;
      cov[a * dims + b] = v;
      cov[b * dims + a] = v;
    }
  const values = symmetricEigen(cov, dims, signal);
  const projection = new Float32Array(dims * k);
  for (let r = 0; r < k; r++) {
    const col = dims - 1 - r; // largest first
    const scale = 1 / Math.sqrt(values[col] + 1e-6);
    for (let j = 0; j < dims; j++) projection[j * k + r] = cov[col * dims + j] * scale;
  }
  return { projection, k, means: Float32Array.from(means) };
}

/** The ood score of raw features with given statistics (n values), as the served graph computes it. */
export function oodScores(x: Float32Array, dims: number, stats: OodStatistics): Float32Array {
  const n = x.length / dims;
  const classes = stats.means.length / dims;
  const out = new Float32Array(n);
  const proj = new Float64Array(stats.k);
  for (let i = 0; i < n; i++) {
    let best = Number.POSITIVE_INFINITY;
    for (let c = 0; c < classes; c++) {
      proj.fill(0);
      for (let j = 0; j < dims; j++) {
        const diff = x[i * dims + j] - stats.means[c * dims + j];
        if (diff === 0) continue;
        for (let r = 0; r < stats.k; r++) proj[r] += diff * stats.projection[j * stats.k + r];
      }
      let s = 0;
      for (let r = 0; r < stats.k; r++) s += proj[r] * proj[r];
      best = Math.min(best, s / stats.k);
    }
    out[i] = best;
  }
  return out;
}
