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
          // The files share their worker's modules: each file still builds its own app over its own
          // database, and no server test mocks a module. Importing the server and compiling PGlite's
          // WebAssembly once per worker rather than once per file halves the project's time (286 -> 151 s).
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      { test: { name: 'contract', include: ['packages/contract/**/*.test.ts'], environment: 'node' } },
      { test: { name: 'scripts', include: ['scripts/**/*.test.ts'], environment: 'node' } },
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
