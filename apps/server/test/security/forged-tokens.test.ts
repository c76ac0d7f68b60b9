import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { decodeJwt, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, backupApi } from '@kutu/contract';
import { openDatabase } from '../../src/db/client.ts';
import { installationSecrets } from '../../src/db/schema/index.ts';
import { farmerBody, PASSWORD } from '../support/auth-flow.ts';
import { type Proc, startProcess, stopProcess, waitReady } from '../support/processes.ts';

/** The development secret this repository once used by default: anyone could sign tokens with it. */
const PUBLISHED = 'kutu-development-secret-change-me-in-production';
const PORT = 18_000 + Math.floor(Math.random() * 1_000);

// A server started as the README says (`npm start`: NODE_ENV and the JWT secrets unset), in its own process.
function startAsReadmeSays(dataDir: string): Proc {
  // Unset, not empty: a spawned process's environment leaves out undefined values.
  const unset = { NODE_ENV: undefined, JWT_ACCESS_SECRET: undefined, JWT_REFRESH_SECRET: undefined };
  const env = { ...unset, DATA_DIR: dataDir, LOG_LEVEL: 'info' } as unknown as Record<string, string>;
  return startProcess('readme-server', 'apps/server/src/main.ts', PORT, env);
}

async function call(base: string, url: string, init: { method?: string; body?: unknown; token?: string } = {}) {
  const res = await fetch(base + url, {
    method: init.method ?? (init.body ? 'POST' : 'GET'),
    headers: {
      ...(init.body ? { 'content-type': 'application/json' } : {}),
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
    },
    body: init.body ? JSON.stringify(init.body) : undefined,
  });
  return { status: res.status, json: (await res.json().catch(() => ({}))) as Record<string, unknown> };
}

/** The newest message to `to` in the development outbox, and the first 4-digit code in it. */
async function codeSentTo(base: string, to: string) {
  // Codes go through the outbox: the server's delivery job sends them a moment later.
  for (let tries = 0; tries < 100; tries++) {
    const { json } = await call(base, '/api/dev/outbox/');
    const message = (json.results as { to: string; text: string }[]).find((m) => m.to === to);
    const code = message?.text.match(/\b(\d{4})\b/)?.[1];
    if (code) return code;
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`no code sent to ${to}`);
}

/** Signs a farmer up over HTTP as the web app does; returns the sign-in reply. */
async function farmerSignsUp(base: string) {
  const body = farmerBody();
  const signUp = await call(base, api.auth.registerFarmer, { body });
  expect(signUp.status, JSON.stringify(signUp.json)).toBe(201);
  const token = signUp.json.token as string;
  const verified = await call(base, api.auth.verifyEmail, {
    body: { token, verificationCode: await codeSentTo(base, body.email) },
  });
  expect(verified.status).toBe(200);
  const active = await call(base, api.auth.activate, {
    body: { token, otp: await codeSentTo(base, body.phone_number) },
  });
  expect(active.status).toBe(200);
  const login = await call(base, api.auth.login, { body: { email: body.email, password: PASSWORD } });
  expect(login.status).toBe(200);
  return login.json as { access: string; refresh: string };
}

/** The farmer's own token, its role replaced and signed again with `secret`. */
function reSigned(access: string, secret: string, role: string) {
  const claims = decodeJwt(access);
  return new SignJWT({ role, typ: 'access', sid: claims.sid })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(String(claims.sub))
    .setIssuedAt()
    .setExpirationTime('10m')
    .sign(new TextEncoder().encode(secret));
}

// Once, `npm start` signed tokens with the secret printed in config.ts: a farmer's token re-signed with
// `role: admin` read the administrator's backups. The secrets are now the installation's own
// (docs/decisions/0097), and the role in a token must be the account's.
describe('a server started as the README says', { timeout: 300_000 }, () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kutu-secrets-'));
  let server: Proc;
  let farmer: { access: string; refresh: string };

  beforeAll(async () => {
    server = startAsReadmeSays(dataDir);
    await waitReady(server, 150_000);
    farmer = await farmerSignsUp(server.base);
  }, 300_000);
  afterAll(async () => {
    if (server) await stopProcess(server);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses tokens signed with the published development secret', async () => {
    expect((await call(server.base, api.auth.me, { token: farmer.access })).status).toBe(200);
    for (const role of ['farmer', 'admin']) {
      const forged = await reSigned(farmer.access, PUBLISHED, role);
      expect((await call(server.base, api.auth.me, { token: forged })).status).toBe(401);
      expect((await call(server.base, backupApi.status, { token: forged })).status).toBe(401);
    }
  });

  it('keeps its secrets across a restart, in the database, never in the log', async () => {
    await stopProcess(server);
    const log = server.output();
    server = startAsReadmeSays(dataDir);
    await waitReady(server, 150_000);
    // The refresh token's stored hash is keyed by the refresh secret, the access token signed by the other.
    expect((await call(server.base, api.auth.me, { token: farmer.access })).status).toBe(200);
    const refreshed = await call(server.base, api.auth.refresh, { body: { refresh: farmer.refresh } });
    expect(refreshed.status, JSON.stringify(refreshed.json)).toBe(200);
    farmer = refreshed.json as typeof farmer;
    await stopProcess(server);

    const database = await openDatabase({ pgliteDir: path.join(dataDir, 'db') });
    const stored = await database.db.select().from(installationSecrets);
    await database.close();
    expect(stored.map((s) => s.name).sort()).toEqual(['jwt_access', 'jwt_refresh']);
    for (const { value } of stored) {
      expect(value.length).toBeGreaterThanOrEqual(43);
      expect(log + server.output()).not.toContain(value);
    }

    // A token signed with the installation's own key (as if it leaked) still cannot claim a role the
    // account does not have.
    server = startAsReadmeSays(dataDir);
    await waitReady(server, 150_000);
    const accessKey = stored.find((s) => s.name === 'jwt_access')!.value;
    expect(
      (await call(server.base, api.auth.me, { token: await reSigned(farmer.access, accessKey, 'farmer') })).status,
    ).toBe(200);
    const asAdmin = await reSigned(farmer.access, accessKey, 'admin');
    expect((await call(server.base, backupApi.status, { token: asAdmin })).status).toBe(401);
    expect((await call(server.base, api.auth.me, { token: asAdmin })).status).toBe(401);
  });
});
