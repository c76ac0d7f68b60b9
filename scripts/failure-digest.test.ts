import { describe, expect, it } from 'vitest';
import { failureDigest } from './failure-digest.ts';

describe('failureDigest', () => {
  it('keeps the failing test, its error and where it was thrown from a long Vitest log, once each', () => {
    const passing = Array.from({ length: 500 }, (_, i) => ` ✓ apps/server/test/a${i}.test.ts (3 tests) 40ms`);
    const log = [
      ...passing,
      '\x1b[31m FAIL \x1b[39m apps/server/test/cluster/delivery.test.ts > delivery workers > leaves every farmer one SMS',
      'AssertionError: expected 9 to be less than or equal to 8',
      ' ❯ apps/server/test/cluster/delivery.test.ts:93:31',
      '     91|     const twice = [...byKey.values()].filter((times) => times.length > 1);',
      ' FAIL  apps/server/test/cluster/delivery.test.ts > delivery workers > leaves every farmer one SMS',
      ' Test Files  1 failed | 2 passed (3)',
    ].join('\n');
    const digest = failureDigest(log).split('\n');
    expect(digest).toEqual([
      ' FAIL  apps/server/test/cluster/delivery.test.ts > delivery workers > leaves every farmer one SMS',
      'AssertionError: expected 9 to be less than or equal to 8',
      ' ❯ apps/server/test/cluster/delivery.test.ts:93:31',
      ' Test Files  1 failed | 2 passed (3)',
    ]);
  });

  it('keeps a Playwright failure and cuts long lines and long lists', () => {
    const log = [
      '  ✓  1 e2e/a.spec.ts:3:1 › fine (1.0s)',
      '  ✘  2 e2e/b.spec.ts:9:1 › breaks (5.0s)',
      '  1) e2e/b.spec.ts:9:1 › breaks',
      `    Error: expect(locator).toBeVisible() failed ${'x'.repeat(300)}`,
      ...Array.from({ length: 40 }, (_, i) => `    Error: number ${i}`),
    ].join('\n');
    const digest = failureDigest(log).split('\n');
    expect(digest).toHaveLength(20);
    expect(digest[0]).toBe('  ✘  2 e2e/b.spec.ts:9:1 › breaks (5.0s)');
    expect(digest[1]).toBe('  1) e2e/b.spec.ts:9:1 › breaks');
    expect(digest[2]).toHaveLength(160);
    expect(digest[2].endsWith('…')).toBe(true);
  });

  it('falls back to the last lines where nothing looks like a failure', () => {
    const log = Array.from({ length: 30 }, (_, i) => `line ${i}`).join('\n');
    expect(failureDigest(log, 3)).toBe('line 27\nline 28\nline 29');
  });
});
