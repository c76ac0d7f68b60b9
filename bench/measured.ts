/**
 * What every bench checks before it prints a figure: that what it measures happened. A send rate of 0 rows,
 * a median of no runs or a page that never loaded is not a figure; these checks throw `NotMeasured`,
 * naming what did not happen, so the bench ends with a non-zero exit code instead of printing it.
 */
export class NotMeasured extends Error {
  override name = 'NotMeasured';
}

/** Ends the bench unless `ok`: `what` names what should have happened ("every row sent"). */
export function ensure(ok: boolean, what: string): asserts ok {
  if (!ok) throw new NotMeasured(`Not measured: ${what} did not happen`);
}

/** A count of things that happened, at least `least` (1 unless said): returned as it is. */
export function atLeast(n: number, least: number, what: string): number {
  ensure(Number.isFinite(n) && n >= least, `${what} (${n}, want at least ${least})`);
  return n;
}

/** Timings of runs that happened: at least one, each a finite number of milliseconds ≥ 0. */
export function timings(xs: readonly number[], what: string): number[] {
  ensure(xs.length > 0, `${what} (no run was timed)`);
  const bad = xs.find((x) => !Number.isFinite(x) || x < 0);
  ensure(bad === undefined, `${what} (a run timed ${bad})`);
  return [...xs];
}

/** The p-th percentile (0–100) of runs that happened: `timings()` holds them first. */
export function percentile(xs: readonly number[], p: number, what: string): number {
  const sorted = timings(xs, what).sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}
