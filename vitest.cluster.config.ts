import { defineConfig } from 'vitest/config';

/**
 * The multi-process test (docs/decisions/0021): its own PostgreSQL, S3 server, two web processes and a
 * worker. Not part of `vitest run`; `npm test` runs it in its PostgreSQL pass.
 */
export default defineConfig({
  test: {
    include: ['apps/server/test/cluster/**/*.test.ts'],
    environment: 'node',
    testTimeout: 240_000,
    hookTimeout: 120_000,
    // Each file has its own PostgreSQL, bucket and ports, and mostly waits on its processes (about a third
    // of two cores): two files at a time.
    maxWorkers: 2,
  },
});
