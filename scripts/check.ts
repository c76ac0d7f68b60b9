/**
 * `npm run check`: lint and types, two tools at a time (the machine has 2 cores; most of these tools use
 * one). The same tools as the npm scripts they are named after; each one's output is printed whole when
 * it ends, so two never interleave. Exits non-zero when any failed, after all have run.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';

const toolPath = `${path.resolve('node_modules/.bin')}${path.delimiter}${process.env.PATH ?? ''}`;

/** Slowest first, so that the short ones fill in beside the long ones. */
const tools: [name: string, command: string][] = [
  ['typecheck: apps/web', 'tsc -p apps/web'],
  ['typecheck: apps/server', 'tsc -p apps/server'],
  ['lint:unused', 'knip --no-progress'],
  ['lint:openapi', 'node scripts/openapi.ts'],
  ['lint:deps', 'npm run lint:deps'],
  ['typecheck: packages/vision', 'tsc -p packages/vision'],
  ['typecheck: packages/contract', 'tsc -p packages/contract'],
  ['lint: biome', 'biome check .'],
  ['lint:python', 'flake8 --config packages/vision/.flake8 packages/vision'],
  ['lint:length', 'node scripts/file-length.ts'],
  ['lint:decisions', 'node scripts/decision-records.ts'],
];
const LANES = 2;

function run(name: string, command: string): Promise<boolean> {
  const started = Date.now();
  const child = spawn(command, { shell: true, env: { ...process.env, PATH: toolPath } });
  const output: Buffer[] = [];
  child.stdout.on('data', (d: Buffer) => output.push(d));
  child.stderr.on('data', (d: Buffer) => output.push(d));
  return new Promise((resolve) => {
    child.on('close', (code) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      console.log(`\n> ${name}: ${command}\n${Buffer.concat(output).toString().trimEnd()}`);
      console.log(`${code === 0 ? 'ok' : 'FAILED'}: ${name} (${seconds} s)`);
      resolve(code === 0);
    });
  });
}

const queue = [...tools];
const failed: string[] = [];
await Promise.all(
  Array.from({ length: LANES }, async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      if (!(await run(...next))) failed.push(next[0]);
    }
  }),
);
if (failed.length) console.error(`\ncheck failed: ${failed.join(', ')}`);
process.exit(failed.length ? 1 : 0);
