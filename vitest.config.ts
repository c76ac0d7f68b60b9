import fs from 'node:fs';
import path from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';
import webConfig, { isolatedWebTests } from './apps/web/vite.config.ts';

/**
 * Server test files that never open a database: no test app, no repository, no migration. `npm test`
 * runs the server project twice, on PGlite and on PostgreSQL (TEST_DATABASE_URL); these would pass or
 * fail the same on both, so the PostgreSQL pass leaves them out (docs/decisions/0075-test-passes.md).
 * A file that starts using a database must leave this list; `scripts/database-free-tests.test.ts`
 * fails if one of them imports the test app, a database client or the schema.
 */
export const databaseFreeServerTests = [
  'apps/server/src/adapters/s3-storage.test.ts',
  'apps/server/src/adapters/sms.test.ts',
  'apps/server/src/adapters/speech.test.ts',
  'apps/server/src/adapters/voice-calls.test.ts',
  'apps/server/src/config.test.ts',
  'apps/server/src/i18n/catalogs.test.ts',
  'apps/server/src/i18n/sms-texts.test.ts',
  'apps/server/src/lib/accept-language.test.ts',
  'apps/server/src/lib/csv.test.ts',
  'apps/server/src/lib/cut-text.test.ts',
  'apps/server/src/lib/decode-limiter.test.ts',
  'apps/server/src/lib/image-upload.test.ts',
  'apps/server/src/lib/list-cache.test.ts',
  'apps/server/src/lib/live-sessions.test.ts',
  'apps/server/src/modules/auth/codes.test.ts',
  'apps/server/src/modules/auth/tokens.test.ts',
  'apps/server/src/modules/delivery/sms-allowed.test.ts',
  'apps/server/src/lib/sms-text.test.ts',
  'apps/server/src/modules/followup/compare.test.ts',
  'apps/server/src/modules/review/review.texts.test.ts',
  'apps/server/src/modules/training/decision.test.ts',
  'apps/server/src/modules/basic-phone/screens.test.ts',
  'apps/server/src/plugins/auth.test.ts',
  'apps/server/src/plugins/language.test.ts',
  'apps/server/test/security/config.test.ts',
  'apps/server/test/security/log-secrets.test.ts',
  'apps/server/test/security/startup.test.ts',
  'apps/server/test/web-build.test.ts',
];

/**
 * Server test files whose database is embedded PGlite whatever TEST_DATABASE_URL says: the migration
 * checks open an in-memory PGlite of their own, the backup command runs against an installation's
 * DATA_DIR/db. The PostgreSQL pass would run them on PGlite a second time, so it leaves them out as it
 * leaves out `databaseFreeServerTests`. `scripts/database-free-tests.test.ts` fails if one of them starts
 * taking its database from TEST_DATABASE_URL (the test app, `openTestDatabase`, or a `DATABASE_URL`).
 */
export const embeddedDatabaseServerTests = [
  'apps/server/src/cli/backup.test.ts',
  'apps/server/src/db/district-codes-migration.test.ts',
  'apps/server/src/db/fields-migration.test.ts',
  'apps/server/src/db/phone-migration.test.ts',
  'apps/server/src/db/role-application-migration.test.ts',
  'apps/server/src/db/vetting-migration.test.ts',
  'apps/server/test/security/forged-tokens.test.ts',
];

/**
 * Server test files that mock a module (the contract's privacy minimum, raised or pinned): the server
 * project shares modules between the files of a worker, so a mock would leak into the next file. These
 * run in `server-isolated`, each in fresh modules, on both database passes.
 */
export const isolatedServerTests = fs
  .readdirSync(path.join(import.meta.dirname, 'apps/server'), { recursive: true, encoding: 'utf8' })
  .filter((file) => /\.test\.ts$/.test(file) && !file.startsWith('node_modules'))
  .map((file) => `apps/server/${file.split(path.sep).join('/')}`)
  .filter((file) =>
    /vi\.(mock|doMock|resetModules)\(/.test(fs.readFileSync(path.join(import.meta.dirname, file), 'utf8')),
  )
  .sort();

/**
 * The server test files `npm test` runs on embedded PGlite (docs/decisions/0138): those that never open a
 * database, those whose database is PGlite whatever the URL, and every file that names PGlite (a backup,
 * the data directory's file modes, an on-disk erasure, the driver parity check): what is about PGlite itself.
 * Every other server file runs on PostgreSQL, production's database; the README-started server of the
 * end-to-end step runs on PGlite. `vitest run` alone still runs every server file on PGlite.
 */
export const pgliteServerTests = [
  ...new Set([
    ...databaseFreeServerTests,
    ...embeddedDatabaseServerTests,
    ...fs
      .readdirSync(path.join(import.meta.dirname, 'apps/server'), { recursive: true, encoding: 'utf8' })
      .filter((file) => /\.test\.ts$/.test(file) && !file.startsWith('node_modules'))
      .map((file) => `apps/server/${file.split(path.sep).join('/')}`)
      .filter((file) => !file.startsWith('apps/server/test/cluster/'))
      .filter((file) => /pglite/i.test(fs.readFileSync(path.join(import.meta.dirname, file), 'utf8'))),
  ]),
].sort();

/** `npm test`'s PGlite step (scripts/test.ts): the server projects run only `pgliteServerTests`. */
const pgliteOnly = Boolean(process.env.TEST_PGLITE_ONLY);

const serverTest = {
  environment: 'node',
  testTimeout: 30_000,
  hookTimeout: 60_000,
} as const;

export default defineConfig({
  test: {
    maxWorkers: 2,
    projects: [
      {
        test: {
          ...serverTest,
          name: 'server',
          include: pgliteOnly ? pgliteServerTests : ['apps/server/**/*.test.ts'],
          // Several processes on their own PostgreSQL and S3 server: `npm test` runs them once, by
          // vitest.cluster.config.ts, not on both database passes.
          exclude: [
            ...configDefaults.exclude,
            'apps/server/test/cluster/**',
            ...isolatedServerTests,
            ...(process.env.TEST_DATABASE_URL ? [...databaseFreeServerTests, ...embeddedDatabaseServerTests] : []),
          ],
          // The files share their worker's modules: each file still builds its own app over its own
          // database, and the files that mock a module run apart (server-isolated). Importing the server and
          // compiling PGlite's WebAssembly once per worker rather than once per file halves the project's
          // time (286 -> 151 s).
          isolate: false,
        },
      },
      {
        test: {
          ...serverTest,
          name: 'server-isolated',
          include: pgliteOnly
            ? isolatedServerTests.filter((file) => pgliteServerTests.includes(file))
            : isolatedServerTests,
          isolate: true,
        },
      },
      { test: { name: 'contract', include: ['packages/contract/**/*.test.ts'], environment: 'node' } },
      { test: { name: 'scripts', include: ['scripts/**/*.test.ts', 'bench/**/*.test.ts'], environment: 'node' } },
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
      // The web files that mock or reset modules, each in a fresh worker (apps/web/vite.config.ts).
      {
        ...webConfig,
        root: 'apps/web',
        test: { ...webConfig.test, name: 'web-isolated', include: isolatedWebTests, exclude: [], isolate: true },
      },
    ],
  },
});
