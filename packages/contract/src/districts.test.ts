import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildDistricts, renderDistrictsModule } from './districts.build.ts';
import { buildCentres, renderCentresModule } from './district-centres.build.ts';
import { boundaryNote, boundaryOf } from './boundaries.ts';
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
