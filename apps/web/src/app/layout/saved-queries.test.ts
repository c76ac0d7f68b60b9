import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import { logout } from './AccountLayout.tsx';
import { session } from '../../lib/session.ts';
import {
  clearSavedQueries,
  persistQueries,
  restoreQueries,
  SAVED_QUERIES_KEY,
  saveQueries,
  savedQueries,
} from '../../lib/saved-queries.ts';

const dashboard = { analyses: 7, rustFound: 3 };

function clientWithData() {
  const client = new QueryClient();
  client.setQueryData(['dashboard', 'Africa/Kampala'], dashboard);
  client.setQueryData(['analysis', 'list', 1, 10], { items: [{ id: 5 }], total: 1 });
  client.setQueryData(['consultations', 'bookings', 'mine', { page: 1, page_size: 10 }], { items: [], total: 0 });
  client.setQueryData(['analysis', 'image', 5], 'blob:photo');
  client.setQueryData(['community', 'posts', 'approved', {}], { items: [{ id: 1 }] });
  client.setQueryData(['me'], { id: 1, username: 'amina' });
  client.setQueryData(['outbreak', 'map', 'maize'], { districts: [{ code: 'UG-102' }] });
  client.setQueryData(['outbreak', 'trend', 'UG-102', 'maize'], { weeks: [] });
  client.setQueryData(['outbreak', 'table', { crop: 'maize', page: 1 }], { results: [] });
  client.setQueryData(['fields', 'list', 1, 10], { count: 1, results: [{ id: 3, name: 'Near the river' }] });
  client.setQueryData(['fields', 'walks', 3, 1, 5], { count: 0, results: [] });
  return client;
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
  clearSavedQueries(); // the module's last-saved time, with the storage the setup clears
});

describe('the saved offline copy', () => {
  it('keeps only the farmer-useful queries and restores them for the same user', () => {
    saveQueries(clientWithData(), 1, Date.parse('2026-11-20T08:00:00Z'));
    const fresh = new QueryClient();
    expect(restoreQueries(fresh, 1)).toBe(true);

    expect(fresh.getQueryData(['dashboard', 'Africa/Kampala'])).toEqual(dashboard);
    expect(fresh.getQueryData(['analysis', 'list', 1, 10])).toEqual({ items: [{ id: 5 }], total: 1 });
    expect(fresh.getQueryData(['consultations', 'bookings', 'mine', { page: 1, page_size: 10 }])).toEqual({
      items: [],
      total: 0,
    });
    expect(fresh.getQueryData(['analysis', 'image', 5])).toBeUndefined();
    expect(fresh.getQueryData(['community', 'posts', 'approved', {}])).toBeUndefined();
    expect(fresh.getQueryData(['me'])).toBeUndefined();
    // The outbreak map and trends read offline (docs/decisions/0035); the expert's table does not.
    expect(fresh.getQueryData(['outbreak', 'map', 'maize'])).toEqual({ districts: [{ code: 'UG-102' }] });
    expect(fresh.getQueryData(['outbreak', 'trend', 'UG-102', 'maize'])).toEqual({ weeks: [] });
    expect(fresh.getQueryData(['outbreak', 'table', { crop: 'maize', page: 1 }])).toBeUndefined();
    // A farmer's fields and their walks, for a walk with no signal (docs/decisions/0078).
    expect(fresh.getQueryData(['fields', 'list', 1, 10])).toEqual({
      count: 1,
      results: [{ id: 3, name: 'Near the river' }],
    });
    expect(fresh.getQueryData(['fields', 'walks', 3, 1, 5])).toEqual({ count: 0, results: [] });
    expect(savedQueries.lastSavedAt()).toBe(Date.parse('2026-11-20T08:00:00Z'));
  });

  it('shows a restored copy at once and fetches it again when a screen reads it, however fresh it was', async () => {
    const before = new QueryClient({ defaultOptions: { queries: { staleTime: 60_000 } } });
    before.setQueryData(['analysis', 'list', 1, 10], { items: [{ id: 5, reviewed: false }], total: 1 });
    saveQueries(before, 1);
    // The next page (a link followed a second later): its copy is a second old, inside the fresh time.
    const next = new QueryClient({ defaultOptions: { queries: { staleTime: 60_000 } } });
    restoreQueries(next, 1);
    const now = { items: [{ id: 5, reviewed: true }], total: 1 };
    const fetched = await next.fetchQuery({ queryKey: ['analysis', 'list', 1, 10], queryFn: async () => now });
    expect(fetched).toEqual(now);
  });

  it('never shows one user the copy of another, and deletes it', () => {
    saveQueries(clientWithData(), 1);
    const fresh = new QueryClient();
    expect(restoreQueries(fresh, 2)).toBe(false);
    expect(fresh.getQueryData(['dashboard', 'Africa/Kampala'])).toBeUndefined();
    expect(localStorage.getItem(SAVED_QUERIES_KEY)).toBeNull();
    expect(savedQueries.lastSavedAt()).toBeNull();
  });

  it('does not replace newer data already in the cache', () => {
    saveQueries(clientWithData(), 1);
    const client = new QueryClient();
    client.setQueryData(
      ['dashboard', 'Africa/Kampala'],
      { analyses: 8, rustFound: 3 },
      { updatedAt: Date.now() + 60_000 },
    );
    restoreQueries(client, 1);
    expect(client.getQueryData(['dashboard', 'Africa/Kampala'])).toEqual({ analyses: 8, rustFound: 3 });
  });

  it('saves again when a saved query gets new data, not for other queries', async () => {
    vi.useFakeTimers();
    const client = new QueryClient();
    const stop = persistQueries(client, 1, 1000);
    client.setQueryData(['community', 'posts', 'approved', {}], { items: [] });
    await vi.advanceTimersByTimeAsync(1500);
    expect(localStorage.getItem(SAVED_QUERIES_KEY)).toBeNull();

    await client.fetchQuery({ queryKey: ['dashboard', 'UTC'], queryFn: async () => dashboard });
    await vi.advanceTimersByTimeAsync(1500);
    stop();
    const fresh = new QueryClient();
    restoreQueries(fresh, 1);
    expect(fresh.getQueryData(['dashboard', 'UTC'])).toEqual(dashboard);
  });

  it('writes a save still waiting when the page is left (a reload or a link followed within the second)', async () => {
    vi.useFakeTimers();
    const client = new QueryClient();
    const stop = persistQueries(client, 1, 1000);
    await client.fetchQuery({ queryKey: ['dashboard', 'UTC'], queryFn: async () => dashboard });
    window.dispatchEvent(new Event('pagehide'));
    const fresh = new QueryClient();
    restoreQueries(fresh, 1);
    expect(fresh.getQueryData(['dashboard', 'UTC'])).toEqual(dashboard);
    stop();
  });

  it('saves data that arrived before it started, and not a copy it was restored from', async () => {
    vi.useFakeTimers();
    const client = new QueryClient();
    await client.fetchQuery({ queryKey: ['dashboard', 'UTC'], queryFn: async () => dashboard });
    const stop = persistQueries(client, 1, 1000);
    await vi.advanceTimersByTimeAsync(1500);
    stop();
    const restored = new QueryClient();
    restoreQueries(restored, 1);
    expect(restored.getQueryData(['dashboard', 'UTC'])).toEqual(dashboard);

    const savedCopy = localStorage.getItem(SAVED_QUERIES_KEY);
    const stopAgain = persistQueries(restored, 1, 1000);
    await vi.advanceTimersByTimeAsync(5000);
    stopAgain();
    expect(localStorage.getItem(SAVED_QUERIES_KEY)).toBe(savedCopy);
  });

  it('is removed with the tokens on logout (a shared phone)', async () => {
    session.signIn({ access: 'a', refresh: 'r', user: { id: 1, username: 'amina' } as never });
    saveQueries(clientWithData(), 1);
    const fetchMock = vi.fn(async () => new Response(null, { status: 204 }));
    vi.stubGlobal('fetch', fetchMock);
    await logout();
    expect(fetchMock).toHaveBeenCalledOnce();
    expect(localStorage.getItem(SAVED_QUERIES_KEY)).toBeNull();
    expect(restoreQueries(new QueryClient(), 1)).toBe(false);
  });
});
