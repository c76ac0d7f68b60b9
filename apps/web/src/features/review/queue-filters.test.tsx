import { afterEach, describe, expect, it } from 'vitest';
import { act, screen } from '@testing-library/react';
import { districts } from '@kutu/contract/districts';
import i18n from '../../lib/i18n.ts';
import { renderWithProviders } from '../../test/render.tsx';
import { fakeServer } from '../../test/fakeServer.ts';
import ReviewQueuePage from './pages/ReviewQueuePage.tsx';

afterEach(async () => {
  await act(() => i18n.changeLanguage('en'));
});

describe("the review queue's district filter", () => {
  // It listed "Busia" twice (Uganda's district and Kenya's county), and once chosen said neither.
  it('names each choice once, with the country where two countries use the name', async () => {
    fakeServer(() => ({ status: 200, body: { results: [], total: 0, page: 1, page_size: 10 } }));
    await act(() => i18n.changeLanguage('lg'));
    renderWithProviders(<ReviewQueuePage />, { route: '/review?district=KE-04' });
    const select = (await screen.findByTestId('filter-district')) as HTMLSelectElement;
    const labels = [...select.options].map((o) => o.textContent);
    expect(labels).toHaveLength(districts.length + 1); // and 'any district'
    expect(labels.filter((l, i) => labels.indexOf(l) !== i)).toEqual([]);
    expect(labels).toContain('Busia (Yuganda)');
    expect(select.selectedOptions[0].textContent).toBe('Busia (Kenya)');
    expect(labels).toContain('Kumi');
  });
});
