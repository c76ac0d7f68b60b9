/**
 * `npm run lint:openapi`: writes the API's OpenAPI document (what /api/docs/json serves) and lints it
 * with Redocly's recommended rules (redocly.yaml). `--out FILE` only writes the document.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestApp } from '../apps/server/test/support/app.ts';

const outAt = process.argv.indexOf('--out');
const file =
  outAt > 0 ? path.resolve(process.argv[outAt + 1]) : path.join(os.tmpdir(), `kutu-openapi-${process.pid}.json`);
const t = await createTestApp();
try {
  // Routes are guarded by default; each says which it is (docs/CONTRIBUTING.md, 'A new route').
  const problems = t.app.routeAccessProblems();
  if (problems.length) {
    console.error(`Routes that do not say who may call them:\n${problems.map((p) => `  ${p}`).join('\n')}`);
    process.exitCode = 1;
  }
  const res = await t.app.inject({ url: '/api/docs/json' });
  if (res.statusCode !== 200) throw new Error(`/api/docs/json answered ${res.statusCode}`);
  fs.writeFileSync(file, JSON.stringify(res.json(), null, 2));
} finally {
  await t.close();
}
if (process.exitCode) process.exit();
if (outAt > 0) process.exit(0);
const bin = path.resolve('node_modules/.bin/redocly');
const r = spawnSync(bin, ['lint', '--config', 'redocly.yaml', '--format', 'stylish', file], { stdio: 'inherit' });
fs.rmSync(file, { force: true });
process.exit(r.status ?? 1);
