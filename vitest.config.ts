import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'server',
          include: ['apps/server/**/*.test.ts'],
          // Several processes on their own PostgreSQL and S3 server: `npm test` runs them once, by
          // vitest.cluster.config.ts, not on both database passes.
          exclude: [...configDefaults.exclude, 'apps/server/test/cluster/**'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      { test: { name: 'contract', include: ['packages/contract/**/*.test.ts'], environment: 'node' } },
      {
        test: {
          name: 'vision',
          include: ['packages/vision/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      'apps/web/vite.config.ts',
    ],
  },
});
