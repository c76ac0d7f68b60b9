import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTemporaryPostgres } from '../../../../scripts/postgres.ts';
import {
  type ClusterEvent,
  type Coordinator,
  createMemoryCoordinator,
  createPgCoordinator,
} from '../../src/adapters/coordinator.ts';
import { createListCaches } from '../../src/lib/list-cache.ts';

const until = async (ok: () => boolean, ms = 5000) => {
  const deadline = Date.now() + ms;
  while (!ok() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  return ok();
};

describe('the PostgreSQL coordinator (LISTEN/NOTIFY)', () => {
  let server: { url: string; stop: () => Promise<void> };
  const open: Coordinator[] = [];
  beforeAll(async () => {
    server = await startTemporaryPostgres();
  });
  afterAll(async () => {
    await Promise.all(open.map((c) => c.close()));
    await server.stop();
  });
  const coordinator = async (opts: Partial<Parameters<typeof createPgCoordinator>[0]> = {}) => {
    const c = await createPgCoordinator({ url: server.url, retryMs: 100, ...opts });
    open.push(c);
    return c;
  };

  it('an event published by one process reaches every process once, the publisher included', async () => {
    const [a, b] = [await coordinator(), await coordinator()];
    const heard: string[] = [];
    a.on('notification-created', (e) => heard.push(`a:${e.notificationId}`));
    b.on('notification-created', (e) => heard.push(`b:${e.notificationId}`));
    b.on('session-revoked', (e) => heard.push(`b:revoked:${e.userId}:${e.sessionId ?? 'all'}`));
    await a.publish({ type: 'notification-created', userId: 7, notificationId: 41 });
    await b.publish({ type: 'session-revoked', userId: 7 });
    await a.publish({ type: 'session-revoked', userId: 8, sessionId: 'family-1' });
    expect(await until(() => heard.length === 4)).toBe(true);
    await new Promise((r) => setTimeout(r, 200));
    expect(heard.sort()).toEqual(['a:41', 'b:41', 'b:revoked:7:all', 'b:revoked:8:family-1']);
  });

  it('a throwing handler is logged and does not keep the others from hearing', async () => {
    const errors: string[] = [];
    const c = await coordinator({ log: (msg) => errors.push(msg) });
    const heard: ClusterEvent[] = [];
    c.on('model-activated', () => {
      throw new Error('broken listener');
    });
    const off = c.on('model-activated', (e) => heard.push(e));
    await c.publish({ type: 'model-activated', versionId: 3, version: 'v3' });
    expect(await until(() => heard.length === 1)).toBe(true);
    expect(errors).toEqual(['a model-activated handler failed']);
    off();
    await c.publish({ type: 'model-activated', versionId: 4, version: 'v4' });
    await new Promise((r) => setTimeout(r, 300));
    expect(heard).toHaveLength(1);
  });

  it('listens again after its connection is cut, and says so', async () => {
    let reconnects = 0;
    const c = await coordinator({ onReconnect: () => reconnects++ });
    const heard: number[] = [];
    c.on('notifications-read', (e) => heard.push(e.userId));
    const admin = new pg.Client({ connectionString: server.url });
    await admin.connect();
    try {
      // What a PostgreSQL restart or a dropped connection does to the listener.
      await admin.query(
        "select pg_terminate_backend(pid) from pg_stat_activity where query ilike 'LISTEN%' and pid <> pg_backend_pid()",
      );
      expect(await until(() => reconnects > 0)).toBe(true);
      await c.publish({ type: 'notifications-read', userId: 5 });
      expect(await until(() => heard.includes(5))).toBe(true);
    } finally {
      await admin.end();
    }
  });

  it("a list changed in one process is dropped from another process's cache as the notification arrives", async () => {
    const clock = { now: () => new Date(0) };
    const here = createListCaches(await coordinator(), clock);
    const there = createListCaches(await coordinator(), clock);
    const slots = there.of<string>('bookable-slots');
    const posts = there.of<string>('approved-posts');
    await slots.get('page 1', async () => ({ value: 'before', bytes: 1 }));
    await posts.get('page 1', async () => ({ value: 'posts', bytes: 1 }));
    const read = () => slots.get('page 1', async () => ({ value: 'after', bytes: 1 }));
    expect(await read()).toBe('before');
    await here.changed('bookable-slots');
    // The clock stands still: only the notification can drop the page, well within a second.
    const started = Date.now();
    while ((await read()) === 'before' && Date.now() - started < 1000) await new Promise((r) => setTimeout(r, 5));
    expect(await read()).toBe('after');
    expect(await posts.get('page 1', async () => ({ value: 'other', bytes: 1 }))).toBe('posts');
  });

  it('in memory (PGlite, one process) the same interface delivers at once', async () => {
    const c = createMemoryCoordinator();
    const heard: ClusterEvent[] = [];
    c.on('session-revoked', (e) => heard.push(e));
    await c.publish({ type: 'session-revoked', userId: 1, sessionId: 's' });
    expect(heard).toEqual([{ type: 'session-revoked', userId: 1, sessionId: 's' }]);
  });
});
