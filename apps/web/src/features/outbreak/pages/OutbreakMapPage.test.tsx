import fs from 'node:fs';
import path from 'node:path';
import type { OutbreakMapReply } from '@kutu/contract';
import { SMALL_COUNT_MIN } from '@kutu/contract/outbreak-paths';
import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../../test/render.tsx';
import { fakeNetwork, json } from '../../../test/fakeServer.ts';
import OutbreakMapPage from './OutbreakMapPage.tsx';

const GEO = path.resolve(import.meta.dirname, '../../../../../../packages/contract/geo');
const topojson = (file: string) => new Response(fs.readFileSync(path.join(GEO, file), 'utf8'), { status: 200 });

afterEach(() => vi.unstubAllGlobals());

describe('OutbreakMapPage', () => {
  // An officer was refused the map (403) and read "Check your connection and try again".
  it("says the server's refusal in its words, not that the connection failed", async () => {
    const refusal = 'This screen is for farmers and experts.';
    fakeNetwork(({ url }) => {
      if (url.includes('uganda-districts')) return topojson('uganda-districts.topojson');
      if (url.includes('kenya-counties')) return topojson('kenya-counties.topojson');
      if (url.startsWith('/api/outbreak/map/')) return json({ error: { code: 'FORBIDDEN', message: refusal } }, 403);
      return json({}, 404);
    });
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
    fakeNetwork(({ url }) => {
      if (url.includes('uganda-districts')) return topojson('uganda-districts.topojson');
      if (url.includes('kenya-counties')) return topojson('kenya-counties.topojson');
      if (url.startsWith('/api/outbreak/map/')) return json(empty);
      return json({}, 404);
    });
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
