import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import type { ErasureEntry, ErasureList } from '@kutu/contract';
import { renderWithProviders } from '../../../test/render.tsx';
import { fakeNetwork, json } from '../../../test/fakeServer.ts';
import { ErasureLog } from './ErasureLog.tsx';

afterEach(() => vi.unstubAllGlobals());

const entry = (id: number, over: Partial<ErasureEntry>): ErasureEntry => ({
  id,
  at: '2027-03-01T06:00:00.000Z',
  role: 'farmer',
  requested_via: 'web',
  counts: {},
  ...over,
});

describe('ErasureLog', () => {
  it('lists each erasure with its role, how it was asked and the counts in plain words, a page at a time', async () => {
    const asked: string[] = [];
    const page1: ErasureList = {
      count: 11,
      next: 2,
      previous: null,
      results: [
        entry(11, {
          role: 'officer',
          requested_via: 'sms',
          counts: { officer_notes_kept_anonymised: 2, analyses: 0 },
        }),
        entry(10, { counts: { analyses: 1, photos: 3, posts_kept_anonymised: 1 } }),
      ],
    };
    fakeNetwork(({ url }) => {
      if (!url.startsWith('/api/privacy/erasures/')) return json({}, 404);
      asked.push(url);
      return json(page1);
    });
    renderWithProviders(<ErasureLog />);
    const cards = await screen.findAllByRole('article');
    expect(cards).toHaveLength(2);
    expect(within(cards[0]).getByText('Extension officer')).toBeTruthy();
    expect(within(cards[0]).getByText('By SMS')).toBeTruthy();
    expect(cards[0].textContent).toContain("Officer's notes kept on farmers' cases: 2");
    expect(cards[0].textContent).not.toContain('diagnos');
    expect(cards[1].textContent).toContain('Photo diagnoses erased: 1');
    expect(cards[1].textContent).toContain('Photo files erased: 3');
    expect(cards[1].textContent).toContain('Answered posts kept, without the person: 1');
    expect(asked[0]).toContain('page_size=10');
    // Eleven erasures: a second page is offered (its buttons load just after the list: ListPagination).
    expect(await screen.findByRole('button', { name: /2/ })).toBeTruthy();
  });

  it('says so when no account was erased', async () => {
    fakeNetwork(() => json({ count: 0, next: null, previous: null, results: [] }));
    renderWithProviders(<ErasureLog />);
    expect(await screen.findByText('No account has been erased.')).toBeTruthy();
  });
});
