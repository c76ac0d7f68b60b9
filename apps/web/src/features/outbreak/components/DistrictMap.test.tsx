import fs from 'node:fs';
import path from 'node:path';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../../test/render.tsx';
import { type DistrictTopology, districtFeatures } from '../lib/geo.ts';
import { LEVEL_FILLS, levelOf } from '../lib/shading.ts';
import { type DistrictCounts, DistrictMap } from './DistrictMap.tsx';
import { DistrictList } from './MapParts.tsx';

const GEO = path.resolve(import.meta.dirname, '../../../../../../packages/contract/geo');
const uganda = districtFeatures(
  JSON.parse(fs.readFileSync(path.join(GEO, 'uganda-districts.topojson'), 'utf8')) as DistrictTopology,
  'UG',
);
const n = (count: number) => ({ count, fewer_than_3: false });
const few = { count: null, fewer_than_3: true };

// Kampala 12 confirmed; Mbale "fewer than 3" confirmed and 4 reported; Gulu only reported (fewer than 3).
const counts = new Map<string, DistrictCounts>([
  ['UG-102', { confirmed: n(12), reported: n(0) }],
  ['UG-209', { confirmed: few, reported: n(4) }],
  ['UG-304', { confirmed: n(0), reported: few }],
]);

describe('shading levels', () => {
  it('steps: none, fewer than 3, 3–9, 10–24, 25 or more', () => {
    expect([n(0), few, n(3), n(9), n(10), n(24), n(25), n(400)].map(levelOf)).toEqual([0, 1, 2, 2, 3, 3, 4, 4]);
    // A 1 or 2 sent as a number still shades (and reads) as "fewer than 3".
    expect(levelOf(n(2))).toBe(1);
  });
});

describe('DistrictMap', () => {
  it('draws every district as a path, shaded by confirmed cases, with reported cases as a ring apart', () => {
    renderWithProviders(
      <DistrictMap features={uganda} counts={counts} selected={null} onSelect={() => {}} label="Map of Uganda" />,
    );
    const map = screen.getByTestId('district-map');
    const paths = map.querySelectorAll('path[data-code]');
    expect(paths).toHaveLength(112);
    for (const p of paths) expect(p.getAttribute('d')).toMatch(/^M[\d.-]/);
    const shade = (code: string) => map.querySelector(`path[data-code="${code}"]`)!.getAttribute('fill');
    expect(shade('UG-102')).toBe(LEVEL_FILLS[3]);
    expect(shade('UG-209')).toBe(LEVEL_FILLS[1]);
    expect(shade('UG-304')).toBe(LEVEL_FILLS[0]); // reported only: not shaded as confirmed
    expect(shade('UG-411')).toBe(LEVEL_FILLS[0]);
    const rings = [...map.querySelectorAll('circle[data-reported]')].map((c) => c.getAttribute('data-reported'));
    expect(rings.sort()).toEqual(['UG-209', 'UG-304']);
  });

  it('names each district with its counts, writing 1 or 2 as "fewer than 3"', () => {
    renderWithProviders(
      <DistrictMap features={uganda} counts={counts} selected={null} onSelect={() => {}} label="Map of Uganda" />,
    );
    const map = screen.getByRole('group', { name: 'Map of Uganda' });
    expect(within(map).getByRole('button', { name: 'Kampala: 12 confirmed, 0 reported' })).toBeTruthy();
    expect(within(map).getByRole('button', { name: 'Mbale: fewer than 3 confirmed, 4 reported' })).toBeTruthy();
    expect(within(map).getByRole('button', { name: 'Gulu: 0 confirmed, fewer than 3 reported' })).toBeTruthy();
    expect(map.innerHTML).not.toMatch(/\b[12] (confirmed|reported)/);
  });

  it('selects a district by tap or keyboard', async () => {
    const onSelect = vi.fn();
    renderWithProviders(
      <DistrictMap features={uganda} counts={counts} selected="UG-102" onSelect={onSelect} label="Map of Uganda" />,
    );
    const kampala = screen.getByRole('button', { name: /^Kampala:/ });
    expect(kampala.getAttribute('aria-pressed')).toBe('true');
    await userEvent.click(screen.getByRole('button', { name: /^Gulu:/ }));
    expect(onSelect).toHaveBeenLastCalledWith('UG-304');
    screen.getByRole('button', { name: /^Mbale:/ }).focus();
    await userEvent.keyboard('{Enter}');
    expect(onSelect).toHaveBeenLastCalledWith('UG-209');
  });
});

describe('DistrictList (the map as a list)', () => {
  it('lists only districts with cases, most confirmed first, small counts as "fewer than 3"', () => {
    renderWithProviders(<DistrictList features={uganda} counts={counts} selected={null} onSelect={() => {}} />);
    const rows = screen.getAllByTestId('district-row').map((r) => r.textContent);
    expect(rows).toEqual([
      'Kampala12 confirmed · 0 reported',
      'Mbalefewer than 3 confirmed · 4 reported',
      'Gulu0 confirmed · fewer than 3 reported',
    ]);
  });

  it('shows nothing when no district has a case', () => {
    renderWithProviders(<DistrictList features={uganda} counts={new Map()} selected={null} onSelect={() => {}} />);
    expect(screen.queryByTestId('district-list')).toBeNull();
  });
});
