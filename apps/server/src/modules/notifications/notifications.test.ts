import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notificationsApi, api, roles } from '@kutu/contract';
import { message, t as say } from '../../i18n/i18n.ts';
import { createTestApp, type TestContext } from '../../../test/support/app.ts';
import { countListeners } from '../../../test/support/listeners.ts';
import { createUser, type TestUser } from '../../../test/support/users.ts';

describe('notifications', () => {
  let t: TestContext;
  let farmer: TestUser;
  let other: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    farmer = await createUser(t, 'farmer');
    other = await createUser(t, 'expert');
  });
  afterAll(() => t.close());

  const list = (user: TestUser, query = '') =>
    t.app.inject({ method: 'GET', url: `${notificationsApi.list}${query}`, headers: user.headers });

  it('needs a signed-in user', async () => {
    const res = await t.app.inject({ method: 'GET', url: `${notificationsApi.list}?page_size=0` });
    expect(res.statusCode).toBe(401); // before the query is validated
    expect(res.json().error.code).toBe('UNAUTHENTICATED');
  });

  it('starts empty', async () => {
    const res = await list(farmer);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ count: 0, next: null, previous: null, results: [], unread_count: 0 });
  });

  it('lists only the caller’s notifications, newest first, paginated, with the unread count', async () => {
    for (let i = 1; i <= 12; i += 1) {
      await t.app.notifications.notify(farmer.id, 'image_analysis', `Analysis ${i} is ready`, { analysis_id: i });
    }
    await t.app.notifications.notify(other.id, 'training_completed', 'Model v2 is active');

    const first = (await list(farmer, '?page_size=5')).json();
    expect(first.count).toBe(12);
    expect(first.unread_count).toBe(12);
    expect(first.next).toBe(2);
    expect(first.previous).toBeNull();
    expect(first.results.map((n: { message: string }) => n.message)).toEqual([
      'Analysis 12 is ready',
      'Analysis 11 is ready',
      'Analysis 10 is ready',
      'Analysis 9 is ready',
      'Analysis 8 is ready',
    ]);
    expect(first.results[0]).toEqual({
      id: expect.any(Number),
      type: 'image_analysis',
      message: 'Analysis 12 is ready',
      date: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
      read: false,
      data: { analysis_id: 12 },
    });

    const last = (await list(farmer, '?page=3&page_size=5')).json();
    expect(last.results.map((n: { message: string }) => n.message)).toEqual([
      'Analysis 2 is ready',
      'Analysis 1 is ready',
    ]);
    expect(last.next).toBeNull();
    expect(last.previous).toBe(2);

    const theirs = (await list(other)).json();
    expect(theirs.count).toBe(1);
    expect(theirs.results[0].type).toBe('training_completed');
  });

  it('rejects a bad page size with the one error shape', async () => {
    const res = await list(farmer, '?page_size=0');
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ code: 'VALIDATION_ERROR', fields: { page_size: expect.any(String) } });
  });

  it('marks one read, persists it, and only for its owner', async () => {
    const [newest] = (await list(farmer, '?page_size=1')).json().results;

    const stranger = await t.app.inject({
      method: 'PUT',
      url: notificationsApi.markReadPath(newest.id),
      headers: other.headers,
    });
    expect(stranger.statusCode).toBe(404);
    expect(stranger.json().error.code).toBe('NOT_FOUND');
    expect((await list(farmer, '?page_size=1')).json().results[0].read).toBe(false);

    const res = await t.app.inject({
      method: 'PUT',
      url: notificationsApi.markReadPath(newest.id),
      headers: farmer.headers,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: newest.id, read: true });

    // Again: still read, no error (idempotent).
    const again = await t.app.inject({
      method: 'PUT',
      url: notificationsApi.markReadPath(newest.id),
      headers: farmer.headers,
    });
    expect(again.statusCode).toBe(200);

    const after = (await list(farmer, '?page_size=1')).json();
    expect(after.results[0]).toMatchObject({ id: newest.id, read: true });
    expect(after.unread_count).toBe(11);
    const unreadOnly = (await list(farmer, '?unread=true&page_size=50')).json();
    expect(unreadOnly.count).toBe(11);
    expect(unreadOnly.results.some((n: { id: number }) => n.id === newest.id)).toBe(false);
  });

  it('answers 404 for a missing notification and 400 for a bad id', async () => {
    const missing = await t.app.inject({
      method: 'PUT',
      url: notificationsApi.markReadPath(999999),
      headers: farmer.headers,
    });
    expect(missing.statusCode).toBe(404);
    const bad = await t.app.inject({
      method: 'PUT',
      url: notificationsApi.markReadPath('abc'),
      headers: farmer.headers,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBe('VALIDATION_ERROR');
  });

  it('marks all of the caller’s notifications read, and nobody else’s', async () => {
    const res = await t.app.inject({ method: 'PUT', url: notificationsApi.readAll, headers: farmer.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ updated: 11, unread_count: 0 });
    const mine = (await list(farmer, '?page_size=50')).json();
    expect(mine.unread_count).toBe(0);
    expect(mine.results.every((n: { read: boolean }) => n.read)).toBe(true);
    expect((await list(other)).json().unread_count).toBe(1);

    const again = await t.app.inject({ method: 'PUT', url: notificationsApi.readAll, headers: farmer.headers });
    expect(again.json()).toEqual({ updated: 0, unread_count: 0 });
  });
});

/** Reads server-sent events from a fetch body. */
function eventReader(body: ReadableStream<Uint8Array>) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  return {
    /** The next event with this name (skipping others and comments), parsed. */
    async next(name: string, timeoutMs = 5000): Promise<{ id?: string; data: Record<string, unknown> }> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        let cut = buffer.indexOf('\n\n');
        while (cut >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const lines = block.split('\n');
          const event = lines.find((l) => l.startsWith('event: '))?.slice(7);
          const data = lines.find((l) => l.startsWith('data: '))?.slice(6);
          const id = lines.find((l) => l.startsWith('id: '))?.slice(4);
          if (event === name && data) return { id, data: JSON.parse(data) };
          cut = buffer.indexOf('\n\n');
        }
        if (Date.now() > deadline) throw new Error(`No '${name}' event within ${timeoutMs} ms`);
        const chunk = await Promise.race([
          reader.read(),
          new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`No '${name}' event`)), timeoutMs)),
        ]);
        if (chunk.done) throw new Error('The stream ended');
        buffer += decoder.decode(chunk.value, { stream: true });
      }
    },
  };
}

describe("notifications in the reader's language of the moment", () => {
  let t: TestContext;
  let farmer: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    farmer = await createUser(t, 'farmer');
  });
  afterAll(() => t.close());

  const messages = async () =>
    (await t.app.inject({ method: 'GET', url: notificationsApi.list, headers: farmer.headers }))
      .json()
      .results.map((n: { message: string }) => n.message);
  const choose = (language: string) =>
    t.app.inject({ method: 'PUT', url: api.auth.language, headers: farmer.headers, payload: { language } });

  it('renders a notification received in English in Kiswahili and Luganda once the farmer changes language', async () => {
    const when = new Date('2026-11-27T07:00:00Z');
    await t.app.notifications.notify(
      farmer.id,
      'booking_approved',
      message('consultations.approved.sms', {
        when,
        how: message('consultations.modes.phone'),
        expert: 'okello',
        phone: '+256700000001',
      }),
      { booking_id: 1 },
    );
    await t.app.notifications.notify(farmer.id, 'moderation_pending', message('notifications.moderationPending'));
    const english = await messages();
    expect(english[1]).toContain('27 Nov 2026');

    expect((await choose('sw')).statusCode).toBe(200);
    expect(await messages()).toEqual([
      say('sw', 'notifications.moderationPending'),
      say('sw', 'consultations.approved.sms', {
        when,
        how: message('consultations.modes.phone'),
        expert: 'okello',
        phone: '+256700000001',
      }),
    ]);
    expect((await messages())[0]).not.toBe(english[0]);

    expect((await choose('lg')).statusCode).toBe(200);
    const luganda = await messages();
    expect(luganda[0]).toBe(say('lg', 'notifications.moderationPending'));
    // The date came back a date, written in Luganda, not an ISO string.
    expect(luganda[1]).not.toContain('2026-11-27T');
    expect(luganda[1]).toBe(
      say('lg', 'consultations.approved.sms', {
        when,
        how: message('consultations.modes.phone'),
        expert: 'okello',
        phone: '+256700000001',
      }),
    );
  });

  it('shows a plain text as it was written', async () => {
    await t.app.notifications.notify(farmer.id, 'image_analysis', 'Written by hand');
    expect((await messages())[0]).toBe('Written by hand');
  });
});

describe('notifications event stream', () => {
  let t: TestContext;
  let base: string;
  let farmer: TestUser;
  let other: TestUser;
  let listenerCount: () => number;
  beforeAll(async () => {
    t = await createTestApp();
    listenerCount = countListeners(t.app.notifications);
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    farmer = await createUser(t, 'farmer');
    other = await createUser(t, 'farmer');
  });
  afterAll(() => t.close());

  const streamToken = async (user: TestUser) => {
    const res = await t.app.inject({ method: 'POST', url: notificationsApi.streamToken, headers: user.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json().expires_in).toBe(60);
    return res.json().token as string;
  };
  /** Opens `user`'s event stream over real HTTP, with a stream token first as the page does. */
  const openStream = async (user: TestUser, signal: AbortSignal) =>
    fetch(`${base}${notificationsApi.stream}?token=${encodeURIComponent(await streamToken(user))}`, { signal });

  it('delivers a new notification to the open stream of its user only, and cleans up on close', async () => {
    const older = await t.app.notifications.notify(farmer.id, 'booking_rejected', 'An older one');
    const abort = new AbortController();
    const res = await openStream(farmer, abort.signal);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = eventReader(res.body!);
    expect((await events.next('ready')).data).toEqual({ unread_count: 1, latest_id: older.id });
    expect(listenerCount()).toBe(1);

    await t.app.notifications.notify(other.id, 'booking_approved', 'Not for this stream');
    const created = await t.app.notifications.notify(farmer.id, 'booking_approved', 'Your booking was approved', {
      booking_id: 7,
    });
    const event = await events.next('notification');
    expect(event.id).toBe(String(created.id));
    expect(event.data).toEqual({
      id: created.id,
      type: 'booking_approved',
      message: 'Your booking was approved',
      date: created.createdAt.toISOString(),
      read: false,
      data: { booking_id: 7 },
      unread_count: 2,
    });

    const readAll = await t.app.inject({ method: 'PUT', url: notificationsApi.readAll, headers: farmer.headers });
    expect(readAll.statusCode).toBe(200);
    expect((await events.next('read')).data).toEqual({ unread_count: 0 });

    abort.abort();
    await expect.poll(() => listenerCount()).toBe(0);
  });

  it('keeps no member for tests in the service: the tests count its listeners from the outside', () => {
    expect(Object.keys(t.app.notifications)).not.toContain('listenerCount');
  });

  it('says on opening that a user with no notifications has none: no newest id', async () => {
    const newcomer = await createUser(t, 'farmer');
    const abort = new AbortController();
    const res = await openStream(newcomer, abort.signal);
    expect((await eventReader(res.body!).next('ready')).data).toEqual({ unread_count: 0, latest_id: null });
    abort.abort();
  });

  it('opens for every role the contract names, an extension officer included', async () => {
    for (const role of roles) {
      const user = await createUser(t, role);
      const abort = new AbortController();
      const res = await openStream(user, abort.signal);
      expect(res.status, `${role}: ${res.status === 200 ? '' : await res.text()}`).toBe(200);
      expect((await eventReader(res.body!).next('ready')).data).toEqual({ unread_count: 0, latest_id: null });
      abort.abort();
    }
  });

  it('opens only with a valid, unused, unexpired stream token', async () => {
    const missing = await t.app.inject({ method: 'GET', url: notificationsApi.stream });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.code).toBe('VALIDATION_ERROR');

    const access = farmer.headers.authorization.replace('Bearer ', '');
    const withAccess = await t.app.inject({ method: 'GET', url: `${notificationsApi.stream}?token=${access}` });
    expect(withAccess.statusCode).toBe(401);

    const garbage = await t.app.inject({ method: 'GET', url: `${notificationsApi.stream}?token=not-a-token` });
    expect(garbage.statusCode).toBe(401);
    expect(garbage.json().error.code).toBe('UNAUTHENTICATED');

    const expiring = await streamToken(farmer);
    t.clock.advance(61_000);
    const expired = await t.app.inject({ method: 'GET', url: `${notificationsApi.stream}?token=${expiring}` });
    expect(expired.statusCode).toBe(401);
    t.clock.set(new Date());

    const once = await streamToken(farmer);
    const abort = new AbortController();
    const first = await fetch(`${base}${notificationsApi.stream}?token=${once}`, { signal: abort.signal });
    expect(first.status).toBe(200);
    const reused = await fetch(`${base}${notificationsApi.stream}?token=${once}`);
    expect(reused.status).toBe(401);
    expect((await reused.json()).error.message).toMatch(/already used/);
    abort.abort();
    await expect.poll(() => listenerCount()).toBe(0);
  });

  it('is described in the OpenAPI docs', async () => {
    const paths = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json().paths;
    for (const p of ['/api/notifications/', '/api/notifications/{id}/read/', '/api/notifications/read-all/']) {
      expect(paths[p], p).toBeDefined();
    }
    expect(JSON.stringify(paths[notificationsApi.stream])).toContain('stream-token');
  });

  it('needs a signed-in user for a stream token', async () => {
    const res = await t.app.inject({ method: 'POST', url: notificationsApi.streamToken });
    expect(res.statusCode).toBe(401);
  });
});
