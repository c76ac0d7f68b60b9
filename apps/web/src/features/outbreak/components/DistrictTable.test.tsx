import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { OutbreakTablePage, OutbreakTableRow } from '@kutu/contract';
import { renderWithProviders } from '../../../test/render.tsx';
import { fakeNetwork, json } from '../../../test/fakeServer.ts';
import { DistrictTable } from './DistrictTable.tsx';

afterEach(() => vi.unstubAllGlobals());

const n = (count: number) => ({ count, below_min: false });
const kampala: OutbreakTableRow = {
  code: 'UG-102',
  name: 'Kampala',
  country: 'UG',
  confirmed: n(12),
  reported: n(4),
  unreviewed: n(3),
  trend: Array.from({ length: 12 }, () => n(1)),
  direction: 'rising',
  alert: true,
  demo: false,
};
const page = (results: OutbreakTableRow[]): OutbreakTablePage => ({
  count: results.length,
  next: null,
  previous: null,
  results,
});

/** The districts endpoint answers each request in turn with the next of `replies` (the last one repeats). */
function stubTable(...replies: (OutbreakTablePage | 'error')[]) {
  let i = 0;
  return fakeNetwork(() => {
    const reply = replies[Math.min(i++, replies.length - 1)];
    return reply === 'error'
      ? json({ error: { code: 'INTERNAL_ERROR', message: 'Something went wrong on our side.' } }, 500)
      : json(reply);
  });
}

describe('DistrictTable', () => {
  it('says a failed load with the reason and a retry button, and the retry brings the rows', async () => {
    const sent = stubTable('error', page([kampala]));
    renderWithProviders(<DistrictTable crop="maize" country="UG" />);
    expect(await screen.findByText('Could not load this list')).toBeTruthy();
    expect(screen.getByText('Something went wrong on our side.')).toBeTruthy();
    expect(screen.queryByTestId('outbreak-table')).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    const row = await screen.findByTestId('outbreak-row');
    expect(within(row).getByText('Kampala')).toBeTruthy();
    expect(screen.queryByText('Could not load this list')).toBeNull();
    expect(sent.filter((s) => s.url.startsWith('/api/outbreak/'))).toHaveLength(2);
  });

  it('shows a spinner while loading, then says so when no district had a case', async () => {
    stubTable(page([]));
    renderWithProviders(<DistrictTable crop="maize" country="UG" />);
    expect(screen.getByRole('status', { name: 'Loading…' })).toBeTruthy();
    expect(await screen.findByText('No district has had a case in the last 12 weeks.')).toBeTruthy();
    expect(screen.queryByTestId('outbreak-table')).toBeNull();
    expect(screen.queryByRole('status', { name: 'Loading…' })).toBeNull();
  });
});
