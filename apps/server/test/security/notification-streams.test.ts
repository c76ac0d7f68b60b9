import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notificationsApi } from '@kutu/contract';
import { MAX_STREAMS_PER_USER } from '../../src/modules/notifications/notifications.routes.ts';
import { createTestApp, type TestContext } from '../helpers.ts';
import { createUser, type TestUser } from '../users.ts';

/** L10: one user cannot hold an unbounded number of notification streams. */
let t: TestContext;
let base: string;
beforeAll(async () => {
  t = await createTestApp();
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t.close());

/** Opens a stream and waits for its `ready` event; `ended` resolves when the server closes it. */
async function openStream(user: TestUser) {
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
    expect(t.app.notifications.listenerCount()).toBe(MAX_STREAMS_PER_USER + 1);

    const newest = await openStream(farmer);
    await streams[0].ended;
    expect(streams.slice(1).map((s) => s.isClosed())).toEqual(Array(MAX_STREAMS_PER_USER - 1).fill(false));
    expect(others.isClosed()).toBe(false);
    expect(t.app.notifications.listenerCount()).toBe(MAX_STREAMS_PER_USER + 1);

    const more = [];
    for (let i = 0; i < 20; i++) more.push(await openStream(farmer));
    expect(t.app.notifications.listenerCount()).toBe(MAX_STREAMS_PER_USER + 1);
    expect(more.slice(-MAX_STREAMS_PER_USER).map((s) => s.isClosed())).toEqual(Array(MAX_STREAMS_PER_USER).fill(false));
    for (const s of [...streams, newest, ...more, others]) s.close();
    await expect.poll(() => t.app.notifications.listenerCount()).toBe(0);
  });
});
