import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { UserRecord } from '@kutu/contract';
import { fakeNetwork, json } from '../test/fakeServer.ts';
import { fetchFile, http } from './api.ts';
import { session } from './session.ts';

const rejected = () => json({ error: { code: 'NOT_AUTHENTICATED', message: 'Token is invalid or expired' } }, 401);

describe('a session the server no longer accepts', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    localStorage.clear();
  });

  it('goes back to the page the user was on, even when a request fails after the screen moved to sign in', async () => {
    history.pushState(null, '', '/account/addresses/analysis-history');
    session.signIn({ access: 'expired', refresh: 'expired', user: { id: 1, role: 'farmer' } as UserRecord });
    let answerLate = () => {};
    const late = new Promise<void>((resolve) => {
      answerLate = resolve;
    });
    const sent = fakeNetwork(async ({ url }) => {
      if (url.endsWith('/late/')) await late;
      return rejected();
    });
    const first = http.get('/api/first/').catch(() => undefined);
    const second = http.get('/api/late/').catch(() => undefined);
    await first;
    expect(session.accessToken()).toBeNull();
    // The signed-out screen has moved to sign in (RequireAuth) before the second answer arrives.
    history.pushState(null, '', '/auth');
    answerLate();
    await second;
    expect(session.takeReturnTo()).toBe('/account/addresses/analysis-history');
    // One refresh was tried, by the first failure; the second found the session already ended.
    expect(sent.filter((s) => s.url.includes('refresh'))).toHaveLength(1);
  });
});

describe('a file fetched signed in (a sample photo, a recording, the offline model)', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    localStorage.clear();
  });

  it('is asked for again with the new token after a refresh, as a JSON request is', async () => {
    session.signIn({ access: 'old', refresh: 'r1', user: { id: 1, role: 'expert' } as UserRecord });
    const sent = fakeNetwork(async ({ url, headers }) => {
      if (url.includes('refresh')) return json({ access: 'new', refresh: 'r2' });
      return headers.authorization === 'Bearer new' ? new Response('photo', { status: 200 }) : rejected();
    });
    const res = await fetchFile('/api/training/samples/1/image/');
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('photo');
    expect(sent.map((s) => s.headers.authorization ?? 'refresh')).toEqual(['Bearer old', 'refresh', 'Bearer new']);
  });

  it('sends no token where it is told not to (the public runtime)', async () => {
    session.signIn({ access: 'old', refresh: 'r1', user: { id: 1, role: 'expert' } as UserRecord });
    const sent = fakeNetwork(async () => new Response('wasm'));
    await fetchFile('/assets/ort.wasm', { auth: false });
    expect(sent[0]!.headers.authorization).toBeUndefined();
  });

  it('is how every file outside src/api/ sends a token: none but lib/api.ts writes the bearer header itself', () => {
    const src = path.resolve(import.meta.dirname, '..');
    const files = fs
      .readdirSync(src, { recursive: true, encoding: 'utf8' })
      .filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f) && !/^(test|api)\//.test(f));
    const own = files.filter((f) => /authorization|Bearer /.test(fs.readFileSync(path.join(src, f), 'utf8')));
    expect(own).toEqual([path.join('lib', 'api.ts')]);
  });
});
