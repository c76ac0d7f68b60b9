/**
 * `npm test`: every test. System packages, lint and types, unit and web tests with the server's tests of
 * the embedded database on PGlite, the server's integration tests on a real PostgreSQL server, then
 * end-to-end tests in Debian's Chromium against the built app on its embedded defaults (PGlite).
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ensureSystemDeps } from './system-deps.ts';
import { startTemporaryPostgres } from './postgres.ts';
import { failureDigest } from './failure-digest.ts';

const bin = (name: string) => `node_modules/.bin/${name}`;
// Tools start with `#!/usr/bin/env node`: make sure that finds Node 24 from node_modules, not the system's.
const toolPath = `${path.resolve('node_modules/.bin')}${path.delimiter}${process.env.PATH ?? ''}`;
const results: { step: string; ok: boolean; output: string }[] = [];

/**
 * Runs one step, showing its output as it comes and keeping it, so a failure can be summed up at the end.
 * A step run `beside` another keeps its output until it ends and then shows it in one piece.
 */
async function step(name: string, cmd: string, args: string[], env: NodeJS.ProcessEnv = {}, beside = false) {
  console.log(beside ? `\n=== ${name} (beside the next steps; its output when it ends)` : `\n=== ${name}`);
  const started = Date.now();
  const child = spawn(cmd, args, {
    stdio: ['inherit', 'pipe', 'pipe'],
    env: { ...process.env, PATH: toolPath, ...env },
  });
  const chunks: Buffer[] = [];
  const keep = (to: NodeJS.WriteStream) => (d: Buffer) => {
    if (!beside) to.write(d);
    chunks.push(d);
  };
  child.stdout.on('data', keep(process.stdout));
  child.stderr.on('data', keep(process.stderr));
  // 'close' waits for the output's end; a process the step left running may hold it open, so a step
  // also ends two seconds after its own process has.
  const status = await new Promise<number | null>((resolve) => {
    child.on('close', resolve);
    child.on('exit', (code) => setTimeout(() => resolve(code), 2_000).unref());
  });
  const ok = status === 0;
  if (beside) console.log(`\n=== ${name}, its output:\n${Buffer.concat(chunks).toString()}`);
  console.log(`=== ${name}: ${ok ? 'passed' : 'FAILED'} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  results.push({ step: name, ok, output: Buffer.concat(chunks).toString() });
  return ok;
}

ensureSystemDeps();
await step('lint and typecheck', 'npm', ['run', 'check']);
// The server's database files run once, on PostgreSQL below; on PGlite only what is about PGlite itself
// (`pgliteServerTests`), with the app on PGlite end to end (docs/decisions/0138).
await step('unit, web and embedded-database tests (PGlite)', bin('vitest'), ['run'], { TEST_PGLITE_ONLY: '1' });

const pg = await startTemporaryPostgres();
try {
  await step(
    'server integration tests (PostgreSQL)',
    bin('vitest'),
    ['run', '--project', 'server', '--project', 'server-isolated'],
    {
      TEST_DATABASE_URL: pg.url,
    },
  );
} finally {
  pg.stop();
}
// Two web processes and a worker on their own PostgreSQL and S3-protocol server (docs/decisions/0021). They
// mostly wait on one another (a third of the machine idle), so the build and its byte checks run beside them.
const severalProcesses = step(
  'several processes (PostgreSQL, S3)',
  bin('vitest'),
  ['run', '--config', 'vitest.cluster.config.ts'],
  {},
  true,
);

await step('build web app', 'npm', ['run', 'build']);
await step(
  'byte budget (sign-in ≤ 100 KiB, signed-out screens ≤ 250 KiB, farmer first screens ≤ 200 KiB, other routes ≤ 230 KiB)',
  'node',
  ['bench/bundle-size.ts', '--enforce'],
);
await step('first visit in Chromium, precache included (≤ 250 KiB)', 'node', ['bench/first-visit.ts', '--enforce']);
await severalProcesses;
await step('end-to-end tests (Chromium)', bin('playwright'), ['test']);

const failed = results.filter((r) => !r.ok);
console.log('\nSummary:');
for (const r of results) console.log(`  ${r.ok ? 'ok    ' : 'FAILED'} ${r.step}`);
// Last, where a CI log that keeps only its end still shows it: what failed, in a few lines a step.
for (const r of failed) console.log(`\nWhat failed in "${r.step}":\n${failureDigest(r.output)}`);
console.log(`${results.length - failed.length} passed, ${failed.length} failed`);
process.exit(failed.length ? 1 : 0);
