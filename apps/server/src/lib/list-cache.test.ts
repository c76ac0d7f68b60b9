import { describe, expect, it } from 'vitest';
import { createMemoryCoordinator } from '../adapters/coordinator.ts';
import { createListCache, createListCaches } from './list-cache.ts';

/** A load that counts its calls and answers what `rows` holds when it is called. */
function source(rows: { value: string }) {
  let calls = 0;
  return {
    load: async () => {
      calls += 1;
      return { value: rows.value, bytes: 1 };
    },
    calls: () => calls,
  };
}

describe('a cache of list pages', () => {
  it('serves a page from memory until cleared, then loads it again', async () => {
    const rows = { value: 'v1' };
    const db = source(rows);
    const cache = createListCache<string>(() => 0);
    expect(await cache.get('p1', db.load)).toBe('v1');
    rows.value = 'v2';
    expect(await cache.get('p1', db.load)).toBe('v1');
    expect(db.calls()).toBe(1);
    cache.clear();
    expect(await cache.get('p1', db.load)).toBe('v2');
    expect(db.calls()).toBe(2);
  });

  it('keys pages apart', async () => {
    const cache = createListCache<string>(() => 0);
    expect(await cache.get('a', async () => ({ value: 'A', bytes: 1 }))).toBe('A');
    expect(await cache.get('b', async () => ({ value: 'B', bytes: 1 }))).toBe('B');
    expect(await cache.get('a', async () => ({ value: 'other', bytes: 1 }))).toBe('A');
  });

  it('does not keep a page whose load began before a clear (it may hold the rows before the write)', async () => {
    const cache = createListCache<string>(() => 0);
    let finish: (v: { value: string; bytes: 1 }) => void = () => {};
    const slow = cache.get('p', () => new Promise((r) => (finish = r)));
    cache.clear();
    finish({ value: 'before the write', bytes: 1 });
    expect(await slow).toBe('before the write');
    expect(await cache.get('p', async () => ({ value: 'after the write', bytes: 1 }))).toBe('after the write');
  });

  it('shares one load among concurrent requests for a page, but not across a clear', async () => {
    const cache = createListCache<string>(() => 0);
    let calls = 0;
    const load = async () => {
      const n = ++calls;
      await new Promise((r) => setTimeout(r, 10));
      return { value: `load ${n}`, bytes: 1 };
    };
    const first = await Promise.all([cache.get('p', load), cache.get('p', load), cache.get('p', load)]);
    expect(first).toEqual(['load 1', 'load 1', 'load 1']);
    cache.clear();
    const during = cache.get('p', load);
    cache.clear();
    expect(await cache.get('p', load)).toBe('load 3');
    expect(await during).toBe('load 2');
  });

  it('expires a page after the TTL, or earlier at the instant its load names', async () => {
    let now = 1_000;
    const cache = createListCache<number>(() => now, 5_000);
    let n = 0;
    const load = async () => ({ value: ++n, bytes: 1 });
    expect(await cache.get('ttl', load)).toBe(1);
    now += 4_999;
    expect(await cache.get('ttl', load)).toBe(1);
    now += 1;
    expect(await cache.get('ttl', load)).toBe(2);

    const untilSoon = async () => ({ value: ++n, until: now + 100, bytes: 1 });
    const v = await cache.get('soon', untilSoon);
    now += 99;
    expect(await cache.get('soon', untilSoon)).toBe(v);
    now += 1;
    expect(await cache.get('soon', untilSoon)).toBe(v + 1);
  });

  it('does not serve a page to a clock set back before the page was read', async () => {
    let now = 10_000;
    const cache = createListCache<number>(() => now);
    let n = 0;
    const load = async () => ({ value: ++n, bytes: 1 });
    expect(await cache.get('p', load)).toBe(1);
    now = 9_000;
    expect(await cache.get('p', load)).toBe(2);
  });

  it('keeps pages up to its size budget, dropping the least recently used, and never one larger than it', async () => {
    const cache = createListCache<string>(() => 0, 5_000, 10);
    let calls = 0;
    const load = (v: string, bytes: number) => async () => {
      calls += 1;
      return { value: v, bytes };
    };
    await cache.get('a', load('a', 4));
    await cache.get('b', load('b', 4));
    await cache.get('a', load('a', 4)); // a is now the most recent
    await cache.get('c', load('c', 4)); // 12 > 10: drops b
    expect(calls).toBe(3);
    await cache.get('a', load('a', 4));
    await cache.get('c', load('c', 4));
    expect(calls).toBe(3);
    await cache.get('huge', load('huge', 11));
    await cache.get('huge', load('huge', 11));
    expect(calls).toBe(5);
    await cache.get('a', load('a', 4));
    expect(calls, 'a page too large to keep evicts nothing').toBe(5);
    await cache.get('b', load('b', 4));
    expect(calls, 'b was dropped').toBe(6);
  });
});

describe('the caches of one process', () => {
  it('drop a list when a write says it changed, and when the coordinator brings the news from another process', async () => {
    const coordinator = createMemoryCoordinator();
    const heard: string[] = [];
    coordinator.on('list-changed', (e) => heard.push(e.list));
    const clock = { now: () => new Date(0) };
    const here = createListCaches(coordinator, clock);
    const posts = here.of<string>('approved-posts');
    const slots = here.of<string>('bookable-slots');
    await posts.get('p', async () => ({ value: 'old posts', bytes: 1 }));
    await slots.get('p', async () => ({ value: 'old slots', bytes: 1 }));

    await here.changed('approved-posts');
    expect(heard).toEqual(['approved-posts']);
    expect(await posts.get('p', async () => ({ value: 'new posts', bytes: 1 }))).toBe('new posts');
    expect(await slots.get('p', async () => ({ value: 'new slots', bytes: 1 }))).toBe('old slots');

    // What another process's `changed` looks like here: only the event.
    await coordinator.publish({ type: 'list-changed', list: 'bookable-slots' });
    expect(await slots.get('p', async () => ({ value: 'new slots', bytes: 1 }))).toBe('new slots');
  });

  it('drop the list here even when the news cannot be sent, and say so', async () => {
    const logged: string[] = [];
    const broken = { ...createMemoryCoordinator(), publish: async () => Promise.reject(new Error('database down')) };
    const here = createListCaches(broken, { now: () => new Date(0) }, (msg) => logged.push(msg));
    const posts = here.of<string>('approved-posts');
    await posts.get('p', async () => ({ value: 'old', bytes: 1 }));
    await here.changed('approved-posts');
    expect(await posts.get('p', async () => ({ value: 'new', bytes: 1 }))).toBe('new');
    expect(logged).toEqual(['could not announce approved-posts']);
  });
});
