import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import type { FieldList, WalkList } from '@kutu/contract';
import { fieldKeys, reloadFields } from '../../api/fields.ts';
import { clearSavedQueries, restoreQueries, saveQueries } from '../../lib/saved-queries.ts';
import { fakeNetwork, json } from '../../test/fakeServer.ts';
import { page, testField, testWalk } from '../../test/fields.ts';

afterEach(() => {
  vi.unstubAllGlobals();
  clearSavedQueries();
});

const notWalked = testField({ id: 3, name: 'River maize', last_walk: null });
const walked = testField({ id: 3, name: 'River maize', last_walk: testWalk({ looked: 50, rust: 14 }) });
const hill = testField({ id: 4, name: 'Hill maize', last_walk: testWalk({ looked: 50, rust: 2 }) });

describe("after a walk, the fields in the phone's saved copy", () => {
  // A page opened by a link (an SMS's /w/ID) starts from the saved copy: its field list is in the cache,
  // on no screen, without the function that loads it until a screen shows it.
  it('are loaded again though they were restored on no screen, so the next copy saved is not the old one', async () => {
    const before = new QueryClient();
    before.setQueryData(fieldKeys.list(1, 10), page([notWalked]));
    before.setQueryData(fieldKeys.walks(3, 1, 5), page([]));
    saveQueries(before, 1);
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    restoreQueries(client, 1);
    const sent = fakeNetwork(({ url }) =>
      url.includes('/walks/') ? json(page([walked.last_walk])) : json(page([walked, hill])),
    );

    await reloadFields(client);

    expect(sent.map((s) => new URL(s.url, 'http://x').pathname).sort()).toEqual([
      '/api/fields/',
      '/api/fields/3/walks/',
    ]);
    expect(client.getQueryState(fieldKeys.list(1, 10))?.status).toBe('success');
    expect(client.getQueryData<FieldList>(fieldKeys.list(1, 10))?.results).toEqual([walked, hill]);
    saveQueries(client, 1);
    const next = new QueryClient();
    restoreQueries(next, 1);
    expect(next.getQueryData<FieldList>(fieldKeys.list(1, 10))?.results).toEqual([walked, hill]);
    expect(next.getQueryData<WalkList>(fieldKeys.walks(3, 1, 5))?.count).toBe(1);
  });
});
