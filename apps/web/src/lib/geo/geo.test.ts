import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Country, type DistrictTopology, districtAt, districtFeatures } from './geo.ts';

// The files the app ships (packages/contract/geo), read as the phone reads them.
const GEO = path.resolve(import.meta.dirname, '../../../../../packages/contract/geo');
const load = (file: string, country: Country) =>
  districtFeatures(JSON.parse(fs.readFileSync(path.join(GEO, file), 'utf8')) as DistrictTopology, country);
const all = [...load('uganda-districts.topojson', 'UG'), ...load('kenya-counties.topojson', 'KE')];
const codeAt = (lon: number, lat: number) => districtAt(all, [lon, lat])?.properties.code ?? null;

describe('districtAt (the district a phone position falls in)', () => {
  it('reads every district of both files, each with a unique code', () => {
    expect(all).toHaveLength(112 + 47);
    expect(new Set(all.map((f) => f.properties.code)).size).toBe(159);
  });

  it.each([
    ['Kampala, city centre', 32.5825, 0.3476, 'UG-102'],
    ['Gulu town', 32.2999, 2.7724, 'UG-304'],
    ['Mbale town', 34.175, 1.0806, 'UG-209'],
    ['Nairobi, CBD', 36.8219, -1.2921, 'KE-30'],
    ['Kisumu', 34.7617, -0.0917, 'KE-17'],
    ['Eldoret (Uasin Gishu)', 35.2698, 0.5143, 'KE-44'],
  ])('%s lands in its district', (_place, lon, lat, code) => {
    expect(codeAt(lon, lat)).toBe(code);
  });

  it('names the district by its properties', () => {
    expect(districtAt(all, [36.8219, -1.2921])?.properties).toMatchObject({ name: 'Nairobi', country: 'KE' });
    expect(districtAt(all, [32.5825, 0.3476])?.properties).toMatchObject({ name: 'Kampala', country: 'UG' });
  });

  it('takes a coastal point just outside the simplified outline to the nearest district', () => {
    // Mombasa's Old Town lies on the island, which the simplified outline cuts a little short.
    expect(codeAt(39.6682, -4.0435)).toBe('KE-28');
  });

  it('gives no district far outside both countries', () => {
    expect(codeAt(39.28, -6.8)).toBeNull(); // Dar es Salaam
    expect(codeAt(30.06, -1.95)).toBeNull(); // Kigali
  });
});
