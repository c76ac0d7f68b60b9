import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildDistricts, renderDistrictsModule } from './districts.build.ts';
import { buildCentres, renderCentresModule } from './district-centres.build.ts';
import { boundaryNote, boundaryOf, pointInDistrict } from './boundaries.ts';
import { districtCentres } from './district-centres.ts';
import { buildPoints, EXTRA_POINTS, kmBetween, MIN_SPACING_KM, renderPointsModule } from './district-points.build.ts';
import { districtPoints } from './district-points.ts';
import { districtByCode, districts, isDistrictCode } from './districts.ts';

describe('district list', () => {
  it('the committed districts.ts equals the one generated from the boundary files', () => {
    const committed = readFileSync(new URL('./districts.ts', import.meta.url), 'utf8');
    expect(committed).toBe(renderDistrictsModule(buildDistricts()));
  });

  it('the committed district-centres.ts equals the one generated from the boundary files', () => {
    const committed = readFileSync(new URL('./district-centres.ts', import.meta.url), 'utf8');
    expect(committed).toBe(renderCentresModule(buildCentres()));
  });

  it('the committed district-points.ts equals the one generated from the boundary files', () => {
    const committed = readFileSync(new URL('./district-points.ts', import.meta.url), 'utf8');
    expect(committed).toBe(renderPointsModule(buildPoints()));
  });

  it("reads a district's weather at its centre and up to four spaced points inside its boundary", () => {
    expect(districtPoints.size).toBe(districts.length);
    for (const d of districts) {
      const [centre, ...more] = districtPoints.get(d.code) ?? [];
      expect(centre, d.code).toEqual(districtCentres.get(d.code));
      expect(more.length, d.code).toBeLessThanOrEqual(EXTRA_POINTS);
      for (const [i, p] of more.entries()) {
        expect(pointInDistrict(d.code, { lat: p[0], lng: p[1] }), `${d.code} ${p}`).toBe(true);
        for (const q of [centre, ...more.slice(0, i)]) expect(kmBetween(p, q)).toBeGreaterThanOrEqual(MIN_SPACING_KM);
      }
    }
    // A long district gets its ends: Bukedea (UG-219) its centre and three more, 15 km or more apart.
    expect(districtPoints.get('UG-219')?.length).toBe(4);
    expect(districtPoints.get('UG-102')).toEqual([districtCentres.get('UG-102')]);
  });

  it('holds the 134 districts and Kampala of ISO 3166-2:UG and the 47 Kenya counties, each code once', () => {
    expect(districts.filter((d) => d.country === 'UG')).toHaveLength(135);
    expect(districts.filter((d) => d.country === 'KE')).toHaveLength(47);
    expect(new Set(districts.map((d) => d.code)).size).toBe(182);
    for (const [code, name] of [
      ['UG-125', 'Kyotera'],
      ['UG-126', 'Kasanda'],
      ['UG-337', 'Obongi'],
      ['UG-219', 'Bukedea'],
      ['UG-420', 'Buhweju'],
      ['UG-435', 'Rwampara'],
    ]) {
      expect(districtByCode(code)?.name).toBe(name);
    }
  });

  it('draws a district newer than the boundary file inside its parent, and says so', () => {
    expect(districtByCode('UG-125')).toMatchObject({ parent: 'UG-110' });
    expect(districtByCode('UG-110')?.neighbours).toContain('UG-125');
    expect(boundaryOf('UG-125')).toEqual(boundaryOf('UG-110'));
    expect(boundaryNote('UG-125')).toMatchObject({ boundary: 'parent:Rakai' });
    expect(boundaryNote('UG-125').boundary_note).toMatch(/Kyotera .* inside Rakai/);
    expect(boundaryNote('UG-110')).toEqual({});
    const drawnInParent = districts.filter((d) => d.parent);
    expect(drawnInParent).toHaveLength(23);
    for (const d of drawnInParent) expect(boundaryOf(d.code), d.code).not.toBeNull();
  });

  it('neighbours are symmetric, known codes, and cross the UG-KE border', () => {
    for (const d of districts) {
      for (const n of d.neighbours) {
        expect(isDistrictCode(n)).toBe(true);
        expect(districtByCode(n)?.neighbours).toContain(d.code);
      }
    }
    expect(districtByCode('UG-102')?.name).toBe('Kampala');
    expect(districtByCode('KE-04')?.neighbours).toContain('UG-202'); // Busia (KE) - Busia (UG)
    expect(isDistrictCode('UG-999')).toBe(false);
  });
});
