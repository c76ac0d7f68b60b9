/**
 * The real server serving the built web app over a throwaway PGlite database, with one signed-in
 * farmer: what the browser benches (web, lighthouse) load their pages from.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createTestApp } from '../apps/server/test/support/app.ts';
import { createUser } from '../apps/server/test/support/users.ts';

// BENCH_WEB_DIST: another build to compare with, side by side in one session.
export const webDist = path.resolve(process.env.BENCH_WEB_DIST ?? path.join(import.meta.dirname, '../apps/web/dist'));

export async function startBuiltApp() {
  if (!fs.existsSync(path.join(webDist, 'index.html'))) {
    console.error('No built web app: run `npm run build` first.');
    process.exit(1);
  }
  const t = await createTestApp({
    env: { WEB_DIST: webDist, RATE_LIMIT_MAX: '100000', AUTH_RATE_LIMIT_MAX: '100000' },
  });
  const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  const farmer = await createUser(t, 'farmer');
  const login = await t.app.inject({
    method: 'POST',
    url: '/api/auth/login/',
    payload: { email: farmer.email, password: farmer.password },
  });
  const tokens = login.json() as { access: string; refresh: string; user: unknown };
  return { t, base, farmer, tokens };
}
