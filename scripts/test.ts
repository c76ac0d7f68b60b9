/**
 * `npm test`: every test. System packages, lint and types, unit and integration tests on embedded
 * PGlite, the server's integration tests again on a real PostgreSQL server, then end-to-end tests in
 * Debian's Chromium against the built app.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ensureSystemDeps } from './system-deps.ts';
import { startTemporaryPostgres } from './postgres.ts';

const bin = (name: string) => `node_modules/.bin/${name}`;
// Tools start with `#!/usr/bin/env node`: make sure that finds Node 24 from node_modules, not the system's.
const toolPath = `${path.resolve('node_modules/.bin')}${path.delimiter}${process.env.PATH ?? ''}`;
const results: { step: string; ok: boolean }[] = [];

function step(name: string, cmd: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  console.log(`\n=== ${name}`);
  const started = Date.now();
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, PATH: toolPath, ...env } });
  const ok = r.status === 0;
  console.log(`=== ${name}: ${ok ? 'passed' : 'FAILED'} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  results.push({ step: name, ok });
  return ok;
}

ensureSystemDeps();
step('lint and typecheck', 'npm', ['run', 'check']);
step('unit and integration tests (PGlite)', bin('vitest'), ['run']);

const pg = await startTemporaryPostgres();
try {
  step('server integration tests (PostgreSQL)', bin('vitest'), ['run', '--project', 'server'], {
    TEST_DATABASE_URL: pg.url,
  });
} finally {
  pg.stop();
}
// Two web processes and a worker on their own PostgreSQL and S3-protocol server (docs/decisions/0021).
step('several processes (PostgreSQL, S3)', bin('vitest'), ['run', '--config', 'vitest.cluster.config.ts']);

step('build web app', 'npm', ['run', 'build']);
step('byte budget (sign-in ≤ 150 KiB, any route ≤ 250 KiB)', 'node', ['bench/bundle-size.ts', '--enforce']);
step('end-to-end tests (Chromium)', bin('playwright'), ['test']);

const failed = results.filter((r) => !r.ok);
console.log('\nSummary:');
for (const r of results) console.log(`  ${r.ok ? 'ok    ' : 'FAILED'} ${r.step}`);
console.log(`${results.length - failed.length} passed, ${failed.length} failed`);
process.exit(failed.length ? 1 : 0);
