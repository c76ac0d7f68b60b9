import { forecastApi, type ForecastScoreReply, type RiskBasis, RUST_WEATHER_VERSION } from '@kutu/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forecastRisks, forecastRuns } from '../../db/schema/index.ts';
import { createTestApp, type TestContext, testDelivery } from '../../../test/support/app.ts';
import { pdfText } from '../../../test/support/pdf.ts';
import { createUser } from '../../../test/support/users.ts';
import { outbreakSources } from '../../ports.ts';
import { createMemoryCoordinator } from '../../adapters/coordinator.ts';
import { createListCaches } from '../../lib/list-cache.ts';
import { createOutbreakService } from '../outbreak/outbreak.service.ts';
import { createScores, scoreReply } from './score-service.ts';
import { createScoreRepo } from './score.repo.ts';

const basis = (near: boolean): RiskBasis => ({
  wet_hours: 8,
  longest_run: 8,
  infection_hours: 6,
  band: [16, 25],
  confirmed_here: false,
  walked_rust_here: false,
  neighbours: near ? ['Mbale'] : [],
  upwind: [],
});

describe("the forecast's score (docs/decisions/0129)", () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp({ workJobs: true });
    t.clock.set(new Date('2026-12-01T03:00:00Z')); // Tuesday; weeks up to 2026-11-09 are scored
    const db = t.deps.database.db;
    const run = async (at: string, rows: [string, 'low' | 'moderate' | 'high', boolean][], weather = true) => {
      const [{ id }] = await db
        .insert(forecastRuns)
        .values({ ranAt: new Date(at), rulesVersion: 'test', weatherFetchedAt: weather ? new Date(at) : null })
        .returning({ id: forecastRuns.id });
      await db.insert(forecastRisks).values(
        rows.flatMap(([district, level, near]) =>
          [0, 1].map((i) => ({
            runId: id,
            district,
            crop: 'maize',
            day: new Date(new Date(at).getTime() + i * 86_400_000).toISOString().slice(0, 10),
            // The worst of the week counts: the first day low, the second the level.
            level: i === 0 ? ('low' as const) : level,
            basis: basis(near),
          })),
        ),
      );
    };
    const confirmed = (district: string, week: string, n: number) =>
      db.execute(
        sql`insert into outbreak_counts (district, crop, week_start, demo, confirmed) values (${district}, 'maize', ${week}, false, ${n})`,
      );
    // Week of 2026-10-05, its first run: Mbale high (rust next door), Bukedea low, Kampala moderate.
    await run('2026-10-05T05:00:00Z', [
      ['UG-209', 'high', true],
      ['UG-219', 'low', false],
      ['UG-102', 'moderate', false],
    ]);
    // A later run of the same week says Bukedea high: only the week's first run is scored.
    await run('2026-10-07T05:00:00Z', [['UG-219', 'high', true]]);
    await confirmed('UG-209', '2026-10-12', 1); // 7 days after: a hit
    await confirmed('UG-102', '2026-10-26', 2); // 21 days after: too late for that week
    await confirmed('UG-219', '2026-10-19', 1); // 14 days after: a miss for Bukedea's low week
    // Week of 2026-10-26: Kampala low, rust confirmed 14 days later: a miss.
    await run('2026-10-26T05:00:00Z', [['UG-102', 'low', false]]);
    await confirmed('UG-102', '2026-11-09', 1);
    // A run without weather and a week whose window is still open are not scored.
    await run('2026-09-07T05:00:00Z', [['UG-209', 'high', true]], false);
    await confirmed('UG-209', '2026-09-14', 1);
    await run('2026-11-16T05:00:00Z', [['UG-209', 'high', true]]);
    await confirmed('UG-209', '2026-11-23', 1);
    // A run older than two years: pruned.
    await run('2024-11-01T05:00:00Z', [['UG-209', 'high', true]]);
  });
  afterAll(() => t.close());

  /** The score as computed from the runs and counts kept now (the season has no walks). */
  const scores = () => {
    const db = t.deps.database.db;
    const outbreak = createOutbreakService(
      {
        db,
        clock: t.clock,
        jobs: t.deps.jobs,
        delivery: testDelivery(t),
        lists: createListCaches(createMemoryCoordinator(), t.clock),
      },
      outbreakSources,
    );
    return createScores({ clock: t.clock }, createScoreRepo(db), { outbreak });
  };
  const storedRows = async () =>
    (await t.deps.database.db.execute(sql`select week_start::text as week from forecast_scores order by week_start`))
      .rows as { week: string }[];
  const scoreLine =
    'Forecast score over 2 weeks (3 district-weeks someone looked at 7 to 21 days after): hit rate 0.33, false-alarm ratio 0.00, Peirce skill -,';

  it('says "not scored yet" before the weekly sweep stored a score, and computes nothing for it', async () => {
    const admin = await createUser(t, 'admin');
    const res = await t.app.inject({ method: 'GET', url: forecastApi.score, headers: admin.headers });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<ForecastScoreReply>()).toEqual({ score: null });
    const pdf = await t.app.inject({ method: 'GET', url: forecastApi.bulletinPdf, headers: admin.headers });
    const text = pdfText(pdf.rawPayload).replace(/\s+/g, ' ');
    expect(text).toContain('Forecast score: not scored yet');
    expect(text).not.toContain('Forecast score over');
    expect(await storedRows()).toEqual([]);
  });

  it("the weekly sweep scores each week's first run against what was confirmed 7–21 days after and stores it once; administrators and national officers read it", async () => {
    // The Monday sweep's queue, worked as the worker works it: the score of this ISO week is stored.
    await t.deps.jobs.send('extension-weekly-report', {}); // extension.jobs.ts's WEEKLY_REPORT_QUEUE
    await expect.poll(storedRows, { timeout: 15_000 }).toEqual([{ week: '2026-11-30' }]);
    // Again in the week: nothing more is stored.
    expect(await scores().storeWeek()).toBe(false);
    expect(await storedRows()).toEqual([{ week: '2026-11-30' }]);

    const admin = await createUser(t, 'admin');
    const officer = await createUser(t, 'officer', { districts: ['UG-102'] });
    const refused = await t.app.inject({ method: 'GET', url: forecastApi.score, headers: officer.headers });
    expect(refused.statusCode).toBe(403);
    const res = await t.app.inject({ method: 'GET', url: forecastApi.score, headers: admin.headers });
    expect(res.statusCode, res.body).toBe(200);
    const s = res.json<ForecastScoreReply>().score!;
    // The stored score is the one computed from the season, number for number.
    expect(s).toEqual(scoreReply(await scores().compute()));
    // Mbale high → confirmed (a); Bukedea low → confirmed (c); Kampala low (10-26) → confirmed (c).
    // Kampala moderate (10-05): nothing seen in its window and nobody walked: not a case.
    expect(s).toMatchObject({
      week_start: '2026-11-30',
      scored_at: '2026-12-01T03:00:00.000Z',
      rules_version: RUST_WEATHER_VERSION,
      to: '2026-11-16',
      weeks: 2,
      cases: 3,
      table: { a: 1, b: 0, c: 2, d: 0 },
    });
    expect(s.hit_rate).toBeCloseTo(1 / 3, 12);
    expect(s.false_alarm_ratio).toBe(0);
    expect(s.peirce).toBeNull(); // no week without rust seen: no false-alarm rate
    expect(s.reliability.find((r) => r.level === 'low')).toEqual({ level: 'low', cases: 2, observed: 2, rate: 1 });
    // The bulletin prints it with the weeks behind it and the week it was scored.
    const pdf = await t.app.inject({ method: 'GET', url: forecastApi.bulletinPdf, headers: admin.headers });
    expect(pdf.statusCode).toBe(200);
    const text = pdfText(pdf.rawPayload).replace(/\s+/g, ' ');
    expect(text).toContain(scoreLine);
    expect(text).toContain('Scored and stored by the weekly sweep in the week of 2026-11-30');
  });

  it('prunes runs older than two years with their risks', async () => {
    const db = t.deps.database.db;
    const before = await db.execute(sql`select count(*)::int as n from forecast_runs`);
    expect((before.rows[0] as { n: number }).n).toBe(6);
    const forecast = createScores({ clock: t.clock }, createScoreRepo(db), {
      outbreak: { weeklyCounts: async () => [] },
    });
    expect(await forecast.pruneRuns()).toBe(1);
    const after = await db.execute(
      sql`select count(*)::int as n from forecast_risks r join forecast_runs u on u.id = r.run_id where u.ran_at < '2025-01-01'`,
    );
    expect((after.rows[0] as { n: number }).n).toBe(0);
    expect(await forecast.pruneRuns()).toBe(0);
  });

  it('answers the stored score without reading the runs or counts again, and the next week appends its own', async () => {
    const db = t.deps.database.db;
    const admin = await createUser(t, 'admin');
    const read = async () =>
      (await t.app.inject({ method: 'GET', url: forecastApi.score, headers: admin.headers })).json<ForecastScoreReply>()
        .score;
    const before = await read();
    // Everything the score was computed from goes: the API and the bulletin still answer the stored score.
    await db.execute(sql`delete from forecast_runs where ran_at > '2025-01-01'`);
    await db.execute(sql`delete from outbreak_counts`);
    expect(await read()).toEqual(before);
    const pdf = await t.app.inject({ method: 'GET', url: forecastApi.bulletinPdf, headers: admin.headers });
    expect(pdfText(pdf.rawPayload).replace(/\s+/g, ' ')).toContain(scoreLine);
    // A week later the sweep stores that week's score beside it (nothing left to score), the latest read.
    t.clock.set(new Date('2026-12-08T03:00:00Z'));
    // Two processes' sweeps at once: one stores it.
    expect((await Promise.all([scores().storeWeek(), scores().storeWeek()])).sort()).toEqual([false, true]);
    expect(await scores().storeWeek()).toBe(false);
    expect(await storedRows()).toEqual([{ week: '2026-11-30' }, { week: '2026-12-07' }]);
    expect(await read()).toMatchObject({ week_start: '2026-12-07', cases: 0, weeks: 0 });
    expect((await db.execute(sql`select cases from forecast_scores where week_start = '2026-11-30'`)).rows).toEqual([
      { cases: 3 },
    ]);
  });
});
