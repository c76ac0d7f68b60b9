import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildDistricts, renderDistrictsModule } from './districts.build.ts';
import { districtByCode, districts, isDistrictCode } from './districts.ts';

describe('district list (issue 36)', () => {
  it('the committed districts.ts equals the one generated from the boundary files', () => {
    const committed = readFileSync(new URL('./districts.ts', import.meta.url), 'utf8');
    expect(committed).toBe(renderDistrictsModule(buildDistricts()));
  });

  it('holds the 112 Uganda districts and the 47 Kenya counties, each code once', () => {
    expect(districts.filter((d) => d.country === 'UG')).toHaveLength(112);
    expect(districts.filter((d) => d.country === 'KE')).toHaveLength(47);
    expect(new Set(districts.map((d) => d.code)).size).toBe(159);
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
