import { count, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratedPgliteSnapshot } from '../../test/support/pglite-snapshot.ts';
import { openTestDatabase } from '../../test/support/app.ts';
import { type Database, openDatabase } from './client.ts';
import { users } from './schema/index.ts';

/**
 * `npm test` runs most server files once, on PostgreSQL, and the app on embedded PGlite end to end
 * (docs/decisions/0138). That holds only while the two drivers hand the repos the same values: this file
 * puts every kind of value the repos read through both, the pass's database (PostgreSQL in `npm test`)
 * beside an in-memory PGlite, and fails on any difference but the one the code is written around.
 */
const VALUES = sql`select 1::int as int4, 2::smallint as int2, 1.25::float8 as float8, 1.5::real as float4,
  1.5::numeric as numeric, avg(x) as average, true as bool, 'x'::text as text, null::int as nothing,
  '2026-11-29'::date as date, '2026-11-29T10:00:00Z'::timestamptz as timestamptz,
  '2026-11-29T10:00:00'::timestamp as timestamp, interval '1 day' as interval,
  json_build_object('a', 1, 'b', array['c']) as json, '{"a": [1, null]}'::jsonb as jsonb,
  array[1, 2]::int[] as int_array, array['a', 'b']::text[] as text_array,
  (date_trunc('week', '2026-11-29T10:00:00Z'::timestamptz at time zone 'UTC'))::date::text as week,
  2::bigint as int8, count(*) as counted, sum(x) as summed
  from (values (1), (2)) v(x)`;
/** PostgreSQL's driver gives a 64-bit integer as a string, PGlite's as a number: repos cast (`::int`) or `Number()` it. */
const INT8 = ['int8', 'counted', 'summed'];

let pass: { database: Database; drop: () => Promise<void> };
let pglite: Database;
beforeAll(async () => {
  pass = await openTestDatabase();
  pglite = await openDatabase({ pgliteDir: null, pgliteSnapshot: await migratedPgliteSnapshot() });
});
afterAll(async () => {
  await pass?.drop();
  await pglite?.close();
});

const first = async (database: Database) =>
  ((await database.db.execute(VALUES)) as unknown as { rows: Record<string, unknown>[] }).rows[0]!;

describe("the pass's database and embedded PGlite", () => {
  it('hand raw SQL the same values, a 64-bit integer aside', async () => {
    const [a, b] = [await first(pass.database), await first(pglite)];
    expect(Object.keys(a)).toEqual(Object.keys(b));
    for (const key of Object.keys(a)) {
      if (INT8.includes(key)) expect(Number(a[key]), key).toBe(b[key]);
      else expect(a[key], key).toEqual(b[key]);
    }
    expect(b.int8).toBe(2);
    expect(a.int8).toBe(pass.database.kind === 'postgres' ? '2' : 2);
  });

  it('hand the raw executor (the job queue) and the query builder the same values', async () => {
    const raw = async (database: Database) =>
      (await database.execute('select $1::int + 1 as n, $2::text as t, $3::jsonb as j', [1, 'x', '{"a":1}'])).rows[0];
    expect(await raw(pass.database)).toEqual(await raw(pglite));
    const built = async (database: Database) => database.db.select({ n: count() }).from(users);
    expect(await built(pass.database)).toEqual([{ n: 0 }]);
    expect(await built(pglite)).toEqual([{ n: 0 }]);
  });
});
