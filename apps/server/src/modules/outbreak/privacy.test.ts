import {
  fieldsApi,
  type OpenFeedGeoJson,
  type OutbreakMapReply,
  type OutbreakTablePage,
  type OutbreakTrendReply,
  outbreakApi,
  type SmallCount,
} from '@kutu/contract';
import { boundaryOf } from '@kutu/contract/boundaries';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/support/app.ts';
import { createUser, type TestUser } from '../../../test/support/users.ts';
import { removeDemoUsers } from '../auth/account.service.ts';
import { createDistrictRust } from './district-now.ts';
import { createOutbreakRepo } from './outbreak.repo.ts';
import { inOutbreak } from './rule.ts';
import { users } from '../../db/schema/index.ts';
import { outbreakSources } from '../../ports.ts';

// These scenarios test the privacy rule's logic at the minimum their data were written for (weeks of 1, 2
// and 3); that every surface follows the contract's minimum, whatever it is, is minimum-five.test.ts's job.
vi.mock(import('@kutu/contract/outbreak-paths'), async (original) => ({
  ...(await original()),
  SMALL_COUNT_MIN: 3,
  SMALL_COUNT_WORDS: { min: 3, max: 2 },
}));

// Now is Wednesday of ISO week 2026-W48 (Monday 2026-11-23); the week before starts 2026-11-16.
const NOW = new Date('2026-11-25T09:00:00Z');
const W47 = '2026-11-16';
const W48 = '2026-11-23';
const KUMI = 'UG-208';
const BUKEDEA = 'UG-219';
const MASAKA = 'UG-105';
const ARUA = 'UG-303';

describe('outbreak privacy: no 1 or 2 can be learnt, by subtraction or by presence (decision 0052)', () => {
  let t: TestContext;
  let expert: TestUser;
  const get = (url: string, query: Record<string, string> = {}, who: TestUser | null = expert) =>
    t.app.inject({ method: 'GET', url, query, headers: who?.headers ?? {} });
  const count = (district: string, week: string, c: number, r: number, u: number, at: string) =>
    t.deps.database.db.execute(sql`insert into outbreak_counts
      (district, crop, week_start, demo, confirmed, reported, unreviewed, updated_at)
      values (${district}, 'beans', ${week}, false, ${c}, ${r}, ${u}, ${at})`);
  const feed = async () => {
    const geo = (await get(outbreakApi.openGeoJson, { crop: 'beans' }, null)).json() as OpenFeedGeoJson;
    const csv = (await get(outbreakApi.openCsv, { crop: 'beans' }, null)).body;
    return { geo: { ...geo, generated_at: '' }, csv };
  };

  beforeAll(async () => {
    t = await createTestApp();
    t.clock.set(NOW);
    expert = await createUser(t, 'expert');
    // Kumi: 1 confirmed the week before, 3 this week; 6 reported (5 unreviewed) then 4 (all unreviewed).
    await count(KUMI, W47, 1, 6, 5, '2026-11-17T10:00:00Z');
    await count(KUMI, W48, 3, 4, 4, '2026-11-25T08:13:27.123Z');
  });
  afterAll(() => t.close());

  it('gives no difference of 1 or 2 between totals, or a total and its weeks, on every route', async () => {
    // Per state: totals over a window (map, table) and the weeks shown one by one (trend, table, CSV, feed).
    type State = 'confirmed' | 'reported';
    const totals: Record<State, { n: number; weeks: string[] }[]> = { confirmed: [], reported: [] };
    const weeks: Record<State, Map<string, number>> = { confirmed: new Map(), reported: new Map() };
    const value = (c: SmallCount | undefined) => (c && !c.below_min ? (c.count ?? 0) : 0);
    const week = (state: State, start: string, c: SmallCount) => {
      if (!c.below_min) weeks[state].set(start, c.count ?? 0);
    };
    for (const days of ['7', '14']) {
      const map = (await get(outbreakApi.map, { crop: 'beans', days })).json() as OutbreakMapReply;
      const kumi = map.districts.find((d) => d.code === KUMI);
      const span = days === '7' ? [W48] : [W47, W48];
      totals.confirmed.push({ n: value(kumi?.confirmed), weeks: span });
      totals.reported.push({ n: value(kumi?.reported), weeks: span });
      expect(map.data_as_of).toBe(`${W48}T00:00:00.000Z`);
    }
    const trend = (await get(outbreakApi.trendPath(KUMI), { crop: 'beans' })).json() as OutbreakTrendReply;
    for (const w of trend.weeks) {
      week('confirmed', w.week_start, w.confirmed);
      week('reported', w.week_start, w.reported);
    }
    const table = (await get(outbreakApi.districts, { crop: 'beans' })).json() as OutbreakTablePage;
    const row = table.results.find((r) => r.code === KUMI);
    totals.confirmed.push({ n: value(row?.confirmed), weeks: [W47, W48] });
    totals.reported.push({ n: value(row?.reported), weeks: [W47, W48] });
    for (const [i, c] of (row?.trend ?? []).entries()) week('confirmed', trend.weeks[i].week_start, c);
    // Unreviewed is part of reported: shown only where the rest of the week is 0 or 3 or more.
    expect(row?.unreviewed).toEqual({ count: 4, below_min: false });
    const csv = (await get(outbreakApi.exportCsv, { crop: 'beans' })).body;
    for (const line of csv.trim().split('\n').slice(1)) {
      const cells = line.split(',');
      if (cells[2] !== KUMI) continue;
      if (cells[6] !== '<3') weeks.confirmed.set(cells[1], Number(cells[6]));
      if (cells[7] !== '<3') weeks.reported.set(cells[1], Number(cells[7]));
    }
    const { geo } = await feed();
    for (const w of geo.features.find((f) => f.properties.code === KUMI)?.properties.weeks ?? []) {
      week('confirmed', w.week_start, w.confirmed);
    }
    expect(geo.data_as_of).toBe(`${W48}T00:00:00.000Z`);
    for (const state of ['confirmed', 'reported'] as const) {
      for (const total of totals[state]) {
        // From a total, take any of its weeks that are shown, or any total over fewer of its weeks.
        const inside = total.weeks.map((w) => weeks[state].get(w) ?? 0);
        const parts = [0, ...inside, inside.reduce((a, b) => a + b, 0)];
        for (const other of totals[state]) if (other.weeks.every((w) => total.weeks.includes(w))) parts.push(other.n);
        for (const part of parts) {
          expect([1, 2], `${state}: ${total.n} - ${part}`).not.toContain(total.n - part);
        }
      }
    }
    expect(totals.confirmed.map((c) => c.n)).toEqual([3, 3, 3]);
  });

  it('shows a district with 1 or 2 cases exactly as one with none, in the feed and every route', async () => {
    const before = await feed();
    const trendOf = async (code: string) => {
      const r = (await get(outbreakApi.trendPath(code), { crop: 'beans' })).json() as OutbreakTrendReply;
      return r.weeks.map(({ confirmed, reported }) => ({ confirmed, reported }));
    };
    const emptyTrend = await trendOf(MASAKA);
    await count(BUKEDEA, W48, 2, 1, 1, '2026-11-25T08:59:00Z');
    expect(await feed()).toEqual(before);
    expect(await trendOf(BUKEDEA)).toEqual(emptyTrend);
    const map = (await get(outbreakApi.map, { crop: 'beans' })).json() as OutbreakMapReply;
    expect(map.districts.map((d) => d.code)).not.toContain(BUKEDEA);
    const table = (await get(outbreakApi.districts, { crop: 'beans' })).json() as OutbreakTablePage;
    expect(table.results.map((r) => r.code)).not.toContain(BUKEDEA);
    expect((await get(outbreakApi.exportCsv, { crop: 'beans' })).body).not.toContain(BUKEDEA);
    expect(map.data_as_of).toBe(`${W48}T00:00:00.000Z`);
  });

  it('keeps demo and real cases apart: a demo case never lifts 1 or 2 real ones into view', async () => {
    // Maize, this week: Kumi 2 real + 1 demo (once shown as "3 (demo)"), Bukedea 2 real + 3 demo,
    // Masaka 3 real + 3 demo. The demo's layout is public (cli/outbreak-demo.ts): no figure may give it away.
    const cell = (district: string, demo: boolean, confirmed: number) =>
      t.deps.database.db.execute(sql`insert into outbreak_counts
        (district, crop, week_start, demo, confirmed, reported, unreviewed, updated_at)
        values (${district}, 'maize', ${W48}, ${demo}, ${confirmed}, 0, 0, '2026-11-24T08:00:00Z')`);
    for (const [district, real, demo] of [
      [KUMI, 2, 1],
      [BUKEDEA, 2, 3],
      [MASAKA, 3, 3],
    ] as const) {
      await cell(district, false, real);
      await cell(district, true, demo);
    }
    const map = (await get(outbreakApi.map, { crop: 'maize', days: '7' })).json() as OutbreakMapReply;
    const onMap = Object.fromEntries(map.districts.map((d) => [d.code, { n: d.confirmed.count, demo: d.demo }]));
    expect(onMap).toEqual({ [BUKEDEA]: { n: 3, demo: true }, [MASAKA]: { n: 6, demo: true } });
    const trendOf = async (code: string) => {
      const r = (await get(outbreakApi.trendPath(code), { crop: 'maize' })).json() as OutbreakTrendReply;
      const w = r.weeks.at(-1)!;
      return { n: w.confirmed.count, demo: w.demo };
    };
    expect(await trendOf(KUMI)).toEqual({ n: null, demo: false });
    expect(await trendOf(BUKEDEA)).toEqual({ n: 3, demo: true });
    expect(await trendOf(MASAKA)).toEqual({ n: 6, demo: true });
    const table = (await get(outbreakApi.districts, { crop: 'maize' })).json() as OutbreakTablePage;
    expect(Object.fromEntries(table.results.map((r) => [r.code, r.confirmed.count]))).toEqual({
      [BUKEDEA]: 3,
      [MASAKA]: 6,
    });
    // The expert's CSV: one line per cell, demo or not; cells under 3 are left out as everywhere.
    const csv = (await get(outbreakApi.exportCsv, { crop: 'maize' })).body.trim().split('\n').slice(1);
    const lines = csv.map((l) => l.split(',')).map((c) => `${c[2]} ${c[6]} ${c[8]}`);
    expect(lines.sort()).toEqual([`${BUKEDEA} 3 true`, `${MASAKA} 3 false`, `${MASAKA} 3 true`].sort());
    // The open feed and the USSD screen have real cases only: Masaka's 3.
    const { geo } = await feed();
    const maize = (await get(outbreakApi.openGeoJson, { crop: 'maize' }, null)).json() as OpenFeedGeoJson;
    expect(maize.features.map((f) => [f.properties.code, f.properties.weeks.map((w) => w.confirmed.count)])).toEqual([
      [MASAKA, [3]],
    ]);
    expect(geo.features.map((f) => f.properties.code)).not.toContain(BUKEDEA);
    const now = await createDistrictRust(createOutbreakRepo(t.deps.database.db, outbreakSources))(KUMI, NOW);
    expect(now.find((c) => c.crop === 'maize')?.confirmed.below_min).toBe(true);
  });

  it('outbreak:demo --remove takes away the demo farmers only, not accounts whose names look alike', async () => {
    // Real sign-ups, some with the demo farmers' very prefix: only the flag says what is demo data.
    const alike = ['demo.outbreak.fan', 'demo-outbreak-2026', 'demoxoutbreakxy', 'demo_outbreak_fan', 'demo_outbreak_'];
    for (const username of alike) await createUser(t, 'farmer', { username });
    const demo = await createUser(t, 'farmer', { username: 'demo_outbreak_ug-208_1' });
    await t.deps.database.db.update(users).set({ demo: true }).where(eq(users.id, demo.id));
    expect(await removeDemoUsers(t.deps.database.db)).toBe(1);
    const res = await t.deps.database.db.execute(sql`select username from users where username like 'demo%'`);
    const left = (res as unknown as { rows: { username: string }[] }).rows.map((r) => r.username).sort();
    expect(left).toEqual([...alike].sort());
  });

  it("puts a district newer than the boundaries in its parent's shape, and says so in the feed", async () => {
    await count('UG-125', W48, 4, 0, 0, '2026-11-25T08:00:00Z'); // Kyotera, carved from Rakai (UG-110)
    const { geo } = await feed();
    const kyotera = geo.features.find((f) => f.properties.code === 'UG-125');
    expect(kyotera?.properties).toMatchObject({ name: 'Kyotera', boundary: 'parent:Rakai' });
    expect(kyotera?.properties.boundary_note).toMatch(/inside Rakai/);
    expect(kyotera?.geometry).toEqual(boundaryOf('UG-110'));
    expect(geo.features.find((f) => f.properties.code === KUMI)?.properties.boundary).toBeUndefined();
  });

  it('raises no alert from weeks it hides: the rule counts shown cells only, as the map does', async () => {
    // Arua: 2 confirmed in each week of the alert window, 4 in all, none shown.
    await count(ARUA, W47, 2, 2, 0, '2026-11-18T08:00:00Z');
    await count(ARUA, W48, 2, 2, 0, '2026-11-24T08:00:00Z');
    const { counts } = await createOutbreakRepo(t.deps.database.db, outbreakSources).ruleInputs(
      t.deps.database.db,
      'beans',
      W47,
      [ARUA, KUMI, BUKEDEA],
      [ARUA],
    );
    expect(counts.get(ARUA)).toBe(0);
    expect(inOutbreak(ARUA, counts)).toBeNull();
    // Kumi: 1 (hidden) and 3 (shown) → 3, what its map total says; Bukedea's 2 stays hidden, and its
    // alert names Kumi, never itself.
    expect(counts.get(KUMI)).toBe(3);
    expect(counts.get(BUKEDEA)).toBe(0);
    expect(inOutbreak(KUMI, counts)).toBe(KUMI);
    expect(inOutbreak(BUKEDEA, counts)).toBe(KUMI);
  });

  it('publishes the fields walked in a district-week and their median incidence only from 3 fields, as the counts', async () => {
    const before = await feed();
    /** A farmer's bean field in the district, walked with these counts (rust of 50 plants), in turn. */
    const walked = async (district: string, ...rusts: number[]) => {
      const farmer = await createUser(t, 'farmer', { district });
      const field = await t.app.inject({
        method: 'POST',
        url: fieldsApi.list,
        headers: farmer.headers,
        payload: { name: 'Beans by the road', crop: 'beans' },
      });
      expect(field.statusCode, field.body).toBe(201);
      for (const [i, rust] of rusts.entries()) {
        const walk = await t.app.inject({
          method: 'POST',
          url: fieldsApi.walksPath(field.json<{ id: number }>().id),
          headers: farmer.headers,
          // Monday first, then Wednesday: the field's latest walk of the week is the one that counts.
          payload: { stops: [{ looked: 50, rust }], walked_at: `${i === 0 ? W48 : '2026-11-25'}T08:00:00.000Z` },
        });
        expect(walk.statusCode, walk.body).toBe(201);
      }
    };
    // Arua: two fields walked and nothing confirmed: nothing to publish, the feed is as it was.
    await walked(ARUA, 10);
    await walked(ARUA, 40);
    expect(await feed()).toEqual(before);
    // Kumi: three fields (rust on 5, 10 and 30 of 50; the first walked twice, 45 then 5): median 10 of 50.
    await walked(KUMI, 45, 5);
    await walked(KUMI, 10);
    await walked(KUMI, 30);
    const { geo, csv } = await feed();
    const kumi = geo.features.find((f) => f.properties.code === KUMI)?.properties.weeks;
    expect(kumi?.map((w) => [w.week_start, w.confirmed.count, w.fields_walked.count, w.median_incidence])).toEqual([
      [W48, 3, 3, 0.2],
    ]);
    expect(csv).toContain(`2026-W48,${W48},${KUMI},Kumi,UG,beans,3,3,0.2\n`);
    expect(geo.features.map((f) => f.properties.code)).not.toContain(ARUA);
    expect(csv).not.toContain(ARUA);
    // A third field in Arua: its walks are shown, its confirmed cases (2 this week) still read "below 3".
    await walked(ARUA, 20);
    const arua = (await feed()).geo.features.find((f) => f.properties.code === ARUA)?.properties.weeks;
    expect(arua).toEqual([
      {
        week: '2026-W48',
        week_start: W48,
        confirmed: { count: null, below_min: true },
        fields_walked: { count: 3, below_min: false },
        median_incidence: 0.4,
      },
    ]);
  });
  it('counts farmers, never fields: one farmer with three walked fields publishes nothing (decision 0105)', async () => {
    const before = await feed();
    const fieldOf = async (farmer: TestUser, name: string, rust: number) => {
      const field = await t.app.inject({
        method: 'POST',
        url: fieldsApi.list,
        headers: farmer.headers,
        payload: { name, crop: 'beans' },
      });
      expect(field.statusCode, field.body).toBe(201);
      const walk = await t.app.inject({
        method: 'POST',
        url: fieldsApi.walksPath(field.json<{ id: number }>().id),
        headers: farmer.headers,
        payload: { stops: [{ looked: 50, rust }], walked_at: `${W48}T08:00:00.000Z` },
      });
      expect(walk.statusCode, walk.body).toBe(201);
    };
    const one = await createUser(t, 'farmer', { district: MASAKA });
    await fieldOf(one, 'Upper beans', 50);
    await fieldOf(one, 'Lower beans', 50);
    await fieldOf(one, 'Beans by the river', 50);
    // Three fields, one farmer: their count and their median (the farmer's own) stay unpublished.
    expect(await feed()).toEqual(before);
    // Two more farmers make three: now the district-week's walks are published, all five fields.
    await fieldOf(await createUser(t, 'farmer', { district: MASAKA }), 'Beans', 5);
    await fieldOf(await createUser(t, 'farmer', { district: MASAKA }), 'Beans', 5);
    const masaka = (await feed()).geo.features.find((f) => f.properties.code === MASAKA)?.properties.weeks;
    expect(masaka?.map((w) => [w.fields_walked.count, w.median_incidence])).toEqual([[5, 1]]);
  });
});
