import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { atLeast, ensure, NotMeasured, percentile, timings } from './measured.ts';

describe('a bench fails when what it measures did not happen', () => {
  it('passes what happened through and refuses what did not, naming it', () => {
    expect(() => ensure(true, 'every row sent')).not.toThrow();
    expect(() => ensure(false, 'every row sent')).toThrow(
      new NotMeasured('Not measured: every row sent did not happen'),
    );
    expect(atLeast(3, 1, 'rows sent')).toBe(3);
    expect(() => atLeast(0, 1, 'rows sent')).toThrow(/rows sent \(0, want at least 1\)/);
    expect(() => atLeast(99, 100, 'rows sent')).toThrow(/want at least 100/);
    expect(() => atLeast(Number.NaN, 1, 'rows sent')).toThrow(NotMeasured);
    expect(timings([3, 1, 2], 'verdicts')).toEqual([3, 1, 2]);
    expect(() => timings([], 'verdicts')).toThrow(/verdicts \(no run was timed\)/);
    expect(() => timings([1, Number.NaN], 'verdicts')).toThrow(/a run timed NaN/);
    expect(percentile([5, 1, 4, 2, 3], 50, 'verdicts')).toBe(3);
    expect(percentile([5, 1, 4, 2, 3], 95, 'verdicts')).toBe(5);
    expect(() => percentile([], 50, 'verdicts')).toThrow(NotMeasured);
  });

  it('ends the bench process with a non-zero exit code and says what did not happen', () => {
    const script = `import { atLeast } from './bench/measured.ts'; console.log('send: 0 of 5 rows'); atLeast(0, 5, 'rows sent');`;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(run.status).not.toBe(0);
    expect(run.stderr).toMatch(/NotMeasured: Not measured: rows sent \(0, want at least 5\) did not happen/);
  });

  it('ends the analysis bench before it prints a figure when no run is to be timed', () => {
    const run = spawnSync(process.execPath, ['bench/analysis.ts'], {
      encoding: 'utf8',
      env: { ...process.env, BENCH_RUNS: '0', BENCH_SKIP_ROUTE: '1' },
      timeout: 120_000,
    });
    expect(run.status).not.toBe(0);
    expect(run.stderr).toMatch(/NotMeasured: Not measured: timed runs \(BENCH_RUNS\) \(0, want at least 1\)/);
    expect(run.stdout).not.toMatch(/sharp alone/);
  }, 120_000);
});
