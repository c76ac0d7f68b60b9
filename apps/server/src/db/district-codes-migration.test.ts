import fs from 'node:fs';
import path from 'node:path';
import { districtByCode } from '@kutu/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, migrationsFolder, openDatabase } from './client.ts';

const files = fs
  .readdirSync(migrationsFolder)
  .filter((f) => f.endsWith('.sql'))
  .sort();
const ours = files.find((f) => f.includes('outbreak_iso_district_codes')) as string;
const statements = (file: string) =>
  fs
    .readFileSync(path.join(migrationsFolder, file), 'utf8')
    .split('--> statement-breakpoint')
    .map((s) => s.trim())
    .filter(Boolean);

describe('migration outbreak_iso_district_codes (docs/decisions/0052)', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({ pgliteDir: null });
    for (const file of files.filter((f) => f < ours)) {
      for (const statement of statements(file)) await database.execute(statement);
    }
  }, 120_000);
  afterAll(() => database.close());

  it('moves each stored Natural Earth code to its district ISO 3166-2:UG code, swaps included', async () => {
    // Natural Earth's codes: UG-224 Bukedea, UG-222 Namutumba (ISO gives 224 to Namutumba), UG-208 Kumi.
    await database.execute(
      `insert into users (email, username, role, phone, district) values
         ('a@example.com', 'bukedea', 'farmer', '+256772000001', 'UG-224'),
         ('b@example.com', 'namutumba', 'farmer', '+256772000002', 'UG-222'),
         ('c@example.com', 'kumi', 'farmer', '+256772000003', 'UG-208')`,
    );
    await database.execute(
      `insert into outbreak_counts (district, crop, week_start, demo, confirmed, reported, unreviewed, updated_at) values
         ('UG-224', 'maize', '2026-11-16', false, 5, 0, 0, now()),
         ('UG-222', 'maize', '2026-11-16', false, 7, 0, 0, now())`,
    );
    for (const statement of statements(ours)) await database.execute(statement);

    const users = await database.execute(`select username, district from users order by username`);
    const named = users.rows.map((r) => ({ username: r.username, name: districtByCode(String(r.district))?.name }));
    expect(named).toEqual([
      { username: 'bukedea', name: 'Bukedea' },
      { username: 'kumi', name: 'Kumi' },
      { username: 'namutumba', name: 'Namutumba' },
    ]);
    const counts = await database.execute(`select district, confirmed from outbreak_counts order by district`);
    expect(counts.rows).toEqual([
      { district: 'UG-219', confirmed: 5 },
      { district: 'UG-224', confirmed: 7 },
    ]);
  });
});
