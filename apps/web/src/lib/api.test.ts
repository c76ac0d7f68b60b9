import { afterEach, describe, expect, it, vi } from 'vitest';
import type { UserRecord } from '@kutu/contract';
import { fakeNetwork, json } from '../test/fakeServer.ts';
import { http } from './api.ts';
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
