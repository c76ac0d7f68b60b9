import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { SMALL_COUNT_MIN, SMALL_COUNT_WORDS } from '@kutu/contract/outbreak-paths';
import { renderWithProviders } from '../../../test/render.tsx';
import { ugandaDistricts } from '../../../test/geo.ts';
import { withNewerDistricts } from '../lib/newer-districts.ts';
import { LEVEL_FILLS, levelOf } from '../lib/shading.ts';
import { type DistrictCounts, DistrictMap } from './DistrictMap.tsx';
import { DistrictList } from './MapParts.tsx';

const uganda = ugandaDistricts();
const n = (count: number) => ({ count, below_min: false });
const few = { count: null, below_min: true };
/** How a hidden count reads ("0 to 2" at a minimum of 3). */
const HIDDEN = `0 to ${SMALL_COUNT_WORDS.max}`;
const SHOWN = SMALL_COUNT_MIN + 1;

// Kampala 12 confirmed; Mbale "0 to 2" confirmed and 4 reported; Gulu only reported (0 to 2).
const counts = new Map<string, DistrictCounts>([
  ['UG-102', { confirmed: n(12), reported: n(0) }],
  ['UG-209', { confirmed: few, reported: n(SHOWN) }],
  ['UG-304', { confirmed: n(0), reported: few }],
]);

describe('shading levels', () => {
  it('steps: none, fewer than 3, 3–9, 10–24, 25 or more', () => {
    expect([n(0), few, n(SMALL_COUNT_MIN), n(9), n(10), n(24), n(25), n(400)].map(levelOf)).toEqual([
      0, 1, 2, 2, 3, 3, 4, 4,
    ]);
    // A 1 or 2 sent as a number still shades (and reads) as "0 to 2".
    expect(levelOf(n(SMALL_COUNT_MIN - 1))).toBe(1);
  }, 30_000);
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
  }, 30_000);

  // Queried by code, not by role among 112 shapes: role queries over the whole map are slow in jsdom.
  const district = (code: string) => screen.getByTestId('district-map').querySelector(`path[data-code="${code}"]`)!;

  it('names each district with its counts, writing any count under 3, none included, as "0 to 2"', () => {
    renderWithProviders(
      <DistrictMap features={uganda} counts={counts} selected={null} onSelect={() => {}} label="Map of Uganda" />,
    );
    expect(screen.getByTestId('district-map').getAttribute('aria-label')).toBe('Map of Uganda');
    const label = (code: string) => district(code).getAttribute('aria-label');
    expect(district('UG-102').getAttribute('role')).toBe('button');
    expect(label('UG-102')).toBe(`Kampala: 12 confirmed, ${HIDDEN} reported`);
    expect(label('UG-209')).toBe(`Mbale: ${HIDDEN} confirmed, ${SHOWN} reported`);
    expect(label('UG-304')).toBe(`Gulu: ${HIDDEN} confirmed, ${HIDDEN} reported`);
    // A district with nothing shown may have one or two cases (decision 0052): it reads as the hidden ones do.
    expect(label('UG-411')).toMatch(new RegExp(`: ${HIDDEN} confirmed, ${HIDDEN} reported$`));
    expect(screen.getByTestId('district-map').innerHTML).not.toMatch(/fewer than|(?<!to )\b[012] (confirmed|reported)/);
  }, 30_000);

  it('selects a district by tap or keyboard', () => {
    const onSelect = vi.fn();
    renderWithProviders(
      <DistrictMap features={uganda} counts={counts} selected="UG-102" onSelect={onSelect} label="Map of Uganda" />,
    );
    expect(district('UG-102').getAttribute('aria-pressed')).toBe('true');
    expect(district('UG-304').getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(district('UG-304'));
    expect(onSelect).toHaveBeenLastCalledWith('UG-304');
    expect(district('UG-209').getAttribute('tabindex')).toBe('0');
    fireEvent.keyDown(district('UG-209'), { key: 'Enter' });
    expect(onSelect).toHaveBeenLastCalledWith('UG-209');
    fireEvent.keyDown(district('UG-102'), { key: ' ' });
    expect(onSelect).toHaveBeenLastCalledWith('UG-102');
  }, 30_000);
});

describe('DistrictList (the map as a list)', () => {
  it('lists only districts with cases, most confirmed first, small counts as "0 to 2"', () => {
    renderWithProviders(<DistrictList features={uganda} counts={counts} selected={null} onSelect={() => {}} />);
    const rows = screen.getAllByTestId('district-row').map((r) => r.textContent);
    expect(rows).toEqual([
      `Kampala12 confirmed · ${HIDDEN} reported`,
      `Mbale${HIDDEN} confirmed · ${SHOWN} reported`,
      `Gulu${HIDDEN} confirmed · ${HIDDEN} reported`,
    ]);
  }, 30_000);

  it('shows nothing when no district has a case', () => {
    renderWithProviders(<DistrictList features={uganda} counts={new Map()} selected={null} onSelect={() => {}} />);
    expect(screen.queryByTestId('district-list')).toBeNull();
  }, 30_000);
});

describe('districts newer than the boundary file (decision 0052)', () => {
  const district = (code: string) => screen.getByTestId('district-map').querySelector(`path[data-code="${code}"]`)!;
  // Kyotera (UG-125) was carved from Rakai (UG-110) and has no shape of its own yet.
  const kyotera = new Map<string, DistrictCounts>([['UG-125', { confirmed: n(12), reported: few }]]);

  it("shades and rings its parent's shape, and selects it there", () => {
    renderWithProviders(
      <DistrictMap features={uganda} counts={kyotera} selected="UG-125" onSelect={() => {}} label="Map of Uganda" />,
    );
    const map = screen.getByTestId('district-map');
    expect(map.querySelector('path[data-code="UG-125"]')).toBeNull();
    expect(district('UG-110').getAttribute('fill')).toBe(LEVEL_FILLS[3]);
    expect(district('UG-110').getAttribute('aria-pressed')).toBe('true');
    expect(map.querySelector('circle[data-reported="UG-110"]')).not.toBeNull();
  }, 30_000);

  it('lists it by its own name, saying it is drawn inside its parent', () => {
    renderWithProviders(
      <DistrictList features={withNewerDistricts(uganda)} counts={kyotera} selected={null} onSelect={() => {}} />,
    );
    const rows = screen.getAllByTestId('district-row').map((r) => r.textContent);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toContain('Kyotera');
    expect(screen.getByTestId('drawn-in-parent').textContent).toMatch(/^Drawn inside Rakai/);
  }, 30_000);
});
