import type { OutbreakMapReply } from '@kutu/contract';
import { SMALL_COUNT_MIN } from '@kutu/contract/outbreak-paths';
import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../../test/render.tsx';
import { fakeNetwork, json } from '../../../test/fakeServer.ts';
import { topojsonResponse } from '../../../test/geo.ts';
import OutbreakMapPage from './OutbreakMapPage.tsx';

/** The map's network: the boundary files, and `map` for the map's counts. */
const mapNetwork = (map: Response) =>
  fakeNetwork(({ url }) => {
    if (url.includes('uganda-districts')) return topojsonResponse('uganda-districts.topojson');
    if (url.includes('kenya-counties')) return topojsonResponse('kenya-counties.topojson');
    if (url.startsWith('/api/outbreak/map/')) return map;
    return json({}, 404);
  });

afterEach(() => vi.unstubAllGlobals());

describe('OutbreakMapPage', () => {
  // An officer was refused the map (403) and read "Check your connection and try again".
  it("says the server's refusal in its words, not that the connection failed", async () => {
    const refusal = 'This screen is for farmers and experts.';
    mapNetwork(json({ error: { code: 'FORBIDDEN', message: refusal } }, 403));
    renderWithProviders(<OutbreakMapPage />);
    const error = await screen.findByTestId('map-error', {}, { timeout: 10_000 });
    expect(error.textContent).toContain(refusal);
    expect(error.textContent).not.toMatch(/connection/i);
  });

  it('says no district has the minimum yet, with the number, when nothing is shown', async () => {
    const empty: OutbreakMapReply = {
      crop: 'maize',
      window_days: 14,
      from: '2026-11-12',
      to: '2026-11-25',
      data_as_of: null,
      generated_at: '2026-11-25T09:00:00.000Z',
      districts: [],
      demo: false,
    };
    mapNetwork(json(empty));
    renderWithProviders(<OutbreakMapPage />);
    expect(
      await screen.findByText(
        new RegExp(`No district has ${SMALL_COUNT_MIN} or more cases yet`),
        {},
        { timeout: 10_000 },
      ),
    ).toBeTruthy();
  });
});
