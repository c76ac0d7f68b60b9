/**
 * Eigen-decomposition of a symmetric matrix (n × n, row-major, overwritten by the eigenvectors as
 * columns): Householder tridiagonalisation and the implicit QL method (tred2/tql2, as in JAMA and EISPACK).
 * Returns the eigenvalues in ascending order; `a[i*n + j]` is component i of eigenvector j.
 * Plain TypeScript, for the ood statistics of a head refit (head-fit.ts).
 */
export function symmetricEigen(a: Float64Array, n: number, signal?: AbortSignal): Float64Array {
  const d = new Float64Array(n);
  const e = new Float64Array(n);
  // tred2 (row-major V = a)
  for (let j = 0; j < n; j++) d[j] = a[j * n + (n - 1)];
  for (let i = n - 1; i > 0; i--) {
    if (i % 64 === 0) signal?.throwIfAborted();
    let scale = 0;
    let h = 0;
    for (let k = 0; k < i; k++) scale += Math.abs(d[k]);
    if (scale === 0) {
      e[i] = d[i - 1];
      for (let j = 0; j < i; j++) {
        d[j] = a[j * n + (i - 1)];
        a[j * n + i] = 0;
        a[i * n + j] = 0;
      }
    } else {
      for (let k = 0; k < i; k++) {
        d[k] /= scale;
        h += d[k] * d[k];
      }
      let f = d[i - 1];
      let g = Math.sqrt(h);
      if (f > 0) g = -g;
      e[i] = scale * g;
      h -= f * g;
      d[i - 1] = f - g;
      for (let j = 0; j < i; j++) e[j] = 0;
      for (let j = 0; j < i; j++) {
        f = d[j];
        a[i * n + j] = f;
        g = e[j] + a[j * n + j] * f;
        for (let k = j + 1; k <= i - 1; k++) {
          g += a[j * n + k] * d[k];
          e[k] += a[j * n + k] * f;
        }
        e[j] = g;
      }
      f = 0;
      for (let j = 0; j < i; j++) {
        e[j] /= h;
        f += e[j] * d[j];
      }
      const hh = f / (h + h);
      for (let j = 0; j < i; j++) e[j] -= hh * d[j];
      for (let j = 0; j < i; j++) {
        f = d[j];
        g = e[j];
        for (let k = j; k <= i - 1; k++) a[j * n + k] -= f * e[k] + g * d[k];
        d[j] = a[j * n + (i - 1)];
        a[j * n + i] = 0;
      }
    }
    d[i] = h;
  }
  for (let i = 0; i < n - 1; i++) {
    if (i % 64 === 0) signal?.throwIfAborted();
    a[i * n + (n - 1)] = a[i * n + i];
    a[i * n + i] = 1;
    const h = d[i + 1];
    if (h !== 0) {
      for (let k = 0; k <= i; k++) d[k] = a[(i + 1) * n + k] / h;
      for (let j = 0; j <= i; j++) {
        let g = 0;
        for (let k = 0; k <= i; k++) g += a[(i + 1) * n + k] * a[j * n + k];
        for (let k = 0; k <= i; k++) a[j * n + k] -= g * d[k];
      }
    }
    for (let k = 0; k <= i; k++) a[(i + 1) * n + k] = 0;
  }
  for (let j = 0; j < n; j++) {
    d[j] = a[j * n + (n - 1)];
    a[j * n + (n - 1)] = 0;
  }
  a[(n - 1) * n + (n - 1)] = 1;
  e[0] = 0;

  // tql2
  for (let i = 1; i < n; i++) e[i - 1] = e[i];
  e[n - 1] = 0;
  let f = 0;
  let tst1 = 0;
  const epsilon = 2 ** -52;
  for (let l = 0; l < n; l++) {
    if (l % 64 === 0) signal?.throwIfAborted();
    tst1 = Math.max(tst1, Math.abs(d[l]) + Math.abs(e[l]));
    let m = l;
    while (m < n) {
      if (Math.abs(e[m]) <= epsilon * tst1) break;
      m++;
    }
    if (m > l) {
      for (let iter = 0; iter < 60; iter++) {
        let g = d[l];
        let p = (d[l + 1] - g) / (2 * e[l]);
        let r = Math.hypot(p, 1);
        if (p < 0) r = -r;
        d[l] = e[l] / (p + r);
        d[l + 1] = e[l] * (p + r);
        const dl1 = d[l + 1];
        let h = g - d[l];
        for (let i = l + 2; i < n; i++) d[i] -= h;
        f += h;
        p = d[m];
        let c = 1;
        let c2 = c;
        let c3 = c;
        const el1 = e[l + 1];
        let s = 0;
        let s2 = 0;
        for (let i = m - 1; i >= l; i--) {
          c3 = c2;
          c2 = c;
          s2 = s;
          g = c * e[i];
          h = c * p;
          r = Math.hypot(p, e[i]);
          e[i + 1] = s * r;
          s = e[i] / r;
          c = p / r;
          p = c * d[i] - s * g;
          d[i + 1] = h + s * (c * g + s * d[i]);
          const next = (i + 1) * n;
          const here = i * n;
          for (let k = 0; k < n; k++) {
            h = a[next + k];
            a[next + k] = s * a[here + k] + c * h;
            a[here + k] = c * a[here + k] - s * h;
          }
        }
        p = (-s * s2 * c3 * el1 * e[l]) / dl1;
        e[l] = s * p;
        d[l] = c * p;
        if (!(Math.abs(e[l]) > epsilon * tst1)) break;
      }
    }
    d[l] += f;
    e[l] = 0;
  }
  // Sort ascending, with the vectors.
  for (let i = 0; i < n - 1; i++) {
    let k = i;
    let p = d[i];
    for (let j = i + 1; j < n; j++)
      if (d[j] < p) {
        k = j;
        p = d[j];
      }
    if (k !== i) {
      d[k] = d[i];
      d[i] = p;
      for (let j = 0; j < n; j++) {
        const t = a[i * n + j];
        a[i * n + j] = a[k * n + j];
        a[k * n + j] = t;
      }
    }
  }
  return d;
}
