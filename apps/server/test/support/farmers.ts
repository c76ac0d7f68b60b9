import type { Database } from '../../src/db/client.ts';

/**
 * `count` activated farmers of `district` who grow maize (their profile says so), with phone numbers
 * `+2567<series><7 digits>`, inserted in one statement each (tests and benchmarks of the alert fan-out).
 */
export async function seedDistrictFarmers(database: Database, district: string, count: number, series: number) {
  const prefix = `fan${series}_`;
  await database.execute(
    `insert into users (username, role, phone, language, district, activated_at, phone_verified_at)
     select $1 || g, 'farmer', '+2567' || $2 || lpad(g::text, 7, '0'), 'en', $3, now(), now()
     from generate_series(1, $4::int) g`,
    [prefix, String(series), district, count],
  );
  await database.execute(
    `insert into farmer_profiles (user_id, farm_location, farm_size, crop_types)
     select id, $2, 1, array['maize'] from users where username like $1 || '%'`,
    [prefix, district],
  );
}

/** An open maize alert for `district` whose fan-out has not run (what the alert rule raises). */
export async function raiseMaizeAlert(database: Database, district: string): Promise<number> {
  const { rows } = await database.execute(
    `insert into outbreak_alerts (district, crop, source_district, raised_at) values ($1, 'maize', $1, now()) returning id`,
    [district],
  );
  return Number(rows[0].id);
}
