import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../../test/render.tsx';
import { ugandaDistricts } from '../../../test/geo.ts';
import { levelOf } from '../lib/shading.ts';
import type { DistrictCounts } from './DistrictMap.tsx';
import { DistrictList, MapLegend } from './MapParts.tsx';

// The privacy minimum raised to 5 where it is set: the map's words and shading follow, none keeps its own 3.
vi.mock(import('@kutu/contract/outbreak-paths'), async (original) => ({
  ...(await original()),
  SMALL_COUNT_MIN: 5,
  SMALL_COUNT_WORDS: { min: 5, max: 4 },
}));

const uganda = ugandaDistricts();
const n = (count: number) => ({ count, below_min: false });
const few = { count: null, below_min: true };

describe('the outbreak map with a minimum of 5', () => {
  it('shades a 4 sent as a number as hidden, and a 5 as shown', () => {
    expect([n(4), n(5)].map(levelOf)).toEqual([1, 2]);
  });

  it('writes hidden counts, and a 4 sent as a number, as "0 to 4"', () => {
    const counts = new Map<string, DistrictCounts>([
      ['UG-102', { confirmed: n(5), reported: n(4) }],
      ['UG-209', { confirmed: few, reported: n(6) }],
    ]);
    renderWithProviders(<DistrictList features={uganda} counts={counts} selected={null} onSelect={() => {}} />);
    expect(screen.getAllByTestId('district-row').map((r) => r.textContent)).toEqual([
      'Kampala5 confirmed · 0 to 4 reported',
      'Mbale0 to 4 confirmed · 6 reported',
    ]);
  }, 30_000);

  it('names the hidden range in the legend', () => {
    renderWithProviders(<MapLegend days={14} />);
    expect(document.body.textContent).toContain('0 to 4');
    expect(document.body.textContent).toContain('5 to 9');
    expect(document.body.textContent).not.toMatch(/\b0 to 2\b|\b3 to 9/);
  });
});
