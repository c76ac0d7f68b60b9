import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notificationsApi, api } from '@kutu/contract';
import { activeAccount, login, post } from '../support/auth-flow.ts';
import { MAX_STREAMS_PER_USER } from '../../src/modules/notifications/notifications.routes.ts';
import { createTestApp, type TestContext } from '../support/app.ts';
import { countListeners } from '../support/listeners.ts';
import { createUser } from '../support/users.ts';
import { changePassword, resetToken } from '../support/security.ts';
import { bearer } from '../support/users.ts';
import { errorOf } from '../support/errors.ts';

/** L10: one user cannot hold an unbounded number of notification streams. */
let t: TestContext;
let base: string;
let listenerCount: () => number;
beforeAll(async () => {
  t = await createTestApp();
  listenerCount = countListeners(t.app.notifications);
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t.close());

/** Opens a stream and waits for its `ready` event; `ended` resolves when the server closes it. */
async function openStream(user: { headers: Record<string, string> }) {
  const tokenRes = await t.app.inject({ method: 'POST', url: notificationsApi.streamToken, headers: user.headers });
  const abort = new AbortController();
  const res = await fetch(`${base}${notificationsApi.stream}?token=${tokenRes.json().token}`, { signal: abort.signal });
  expect(res.status).toBe(200);
  const reader = res.body!.getReader();
  let text = '';
  while (!text.includes('event: ready')) text += new TextDecoder().decode((await reader.read()).value);
  let closed = false;
  const ended = (async () => {
    try {
      while (!(await reader.read()).done);
    } catch {
      // aborted by the test
    }
    closed = true;
  })();
  return { ended, isClosed: () => closed, close: () => abort.abort() };
}

describe('L10: notification streams per user', () => {
  it(`keeps at most ${MAX_STREAMS_PER_USER} per user: a new one closes the oldest, other users keep theirs`, async () => {
    const farmer = await createUser(t, 'farmer');
    const other = await createUser(t, 'farmer');
    const others = await openStream(other);
    const streams = [];
    for (let i = 0; i < MAX_STREAMS_PER_USER; i++) streams.push(await openStream(farmer));
    expect(listenerCount()).toBe(MAX_STREAMS_PER_USER + 1);

    const newest = await openStream(farmer);
    await streams[0].ended;
    expect(streams.slice(1).map((s) => s.isClosed())).toEqual(Array(MAX_STREAMS_PER_USER - 1).fill(false));
    expect(others.isClosed()).toBe(false);
    expect(listenerCount()).toBe(MAX_STREAMS_PER_USER + 1);

    const more = [];
    for (let i = 0; i < 20; i++) more.push(await openStream(farmer));
    expect(listenerCount()).toBe(MAX_STREAMS_PER_USER + 1);
    expect(more.slice(-MAX_STREAMS_PER_USER).map((s) => s.isClosed())).toEqual(Array(MAX_STREAMS_PER_USER).fill(false));
    for (const s of [...streams, newest, ...more, others]) s.close();
    await expect.poll(() => listenerCount()).toBe(0);
  });
});

/** A signed-in session of a fresh account, with two open streams. */
async function sessionWithStreams() {
  const account = await activeAccount(t);
  const session = await login(t, account.email);
  const headers = bearer(session.access);
  return { account, session, streams: [await openStream({ headers }), await openStream({ headers })] };
}

/** M2 for streams: an open stream ends with its session, as the session's access tokens do. */
describe('open notification streams close when their session ends', () => {
  it('on logout (that session only)', async () => {
    const { account, session, streams } = await sessionWithStreams();
    const other = await openStream({ headers: bearer((await login(t, account.email)).access) });
    expect(streams.some((s) => s.isClosed())).toBe(false);
    expect((await post(t, api.auth.logout, { refresh: session.refresh })).statusCode).toBe(200);
    await Promise.all(streams.map((s) => s.ended));
    expect(other.isClosed()).toBe(false);
    other.close();
  });

  it('on a password change (every older session), while the new session can open one', async () => {
    const { account, session, streams } = await sessionWithStreams();
    const res = await changePassword(t, session.access, account.password);
    expect(res.statusCode, res.body).toBe(200);
    await Promise.all(streams.map((s) => s.ended));
    const fresh = await openStream({ headers: bearer(res.json().access) });
    expect(fresh.isClosed()).toBe(false);
    fresh.close();
  });

  it('on a password reset', async () => {
    const { account, streams } = await sessionWithStreams();
    await post(t, api.auth.forgotPassword, { email: account.email });
    const res = await post(t, api.auth.resetPassword, {
      token: await resetToken(t, account.email),
      new_password: 'Fr3sh!Password',
      confirm_password: 'Fr3sh!Password',
    });
    expect(res.statusCode, res.body).toBe(200);
    await Promise.all(streams.map((s) => s.ended));
  });

  it('on refresh-token reuse', async () => {
    const { session, streams } = await sessionWithStreams();
    expect((await post(t, api.auth.refresh, { refresh: session.refresh })).statusCode).toBe(200);
    expect(streams.some((s) => s.isClosed())).toBe(false);
    expect((await post(t, api.auth.refresh, { refresh: session.refresh })).statusCode).toBe(401);
    await Promise.all(streams.map((s) => s.ended));
  });

  it('and a stream token taken before logout opens nothing after it', async () => {
    const account = await activeAccount(t);
    const session = await login(t, account.email);
    const tokenRes = await t.app.inject({
      method: 'POST',
      url: notificationsApi.streamToken,
      headers: bearer(session.access),
    });
    await post(t, api.auth.logout, { refresh: session.refresh });
    const res = await t.app.inject({ method: 'GET', url: `${notificationsApi.stream}?token=${tokenRes.json().token}` });
    expect(res.statusCode).toBe(401);
    expect(errorOf(res).message).toBe('Your session has ended. Please sign in again.');
  });
});
