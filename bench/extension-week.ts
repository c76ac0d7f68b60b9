/**
 * An extension officer's week at scale (npm run bench:extension-week).
 *
 * One district (Kumi, UG-208) with BENCH_FARMERS (default 10,000) farmers and a year of their analyses
 * (BENCH_ANALYSES, default 200,000: about 20 photos a farmer; a third confident rust, a fifth of those
 * confirmed by an expert), counted by the outbreak repair recount; an open maize alert told to every
 * farmer (10,000 notifications and outbox rows); follow-ups (some "worse"), call-back requests and
 * plant-clinic visits over the year, and five other outbox messages per farmer. Then, through app.inject as an approved officer of the district:
 * - the week (GET /api/extension/districts/UG-208/week/), BENCH_RUNS times: p50 and p95 (target p95 <= 200 ms);
 * - the PDF (GET …/report.pdf), BENCH_PDF_RUNS times: p50 and p95 (target <= 2 s).
 * On a temporary PostgreSQL server (scripts/postgres.ts); BENCH_PGLITE=1 runs it on PGlite instead.
 * Figures, not a test: the machine's other load shows in them.
 */
import os from 'node:os';
import { extensionApi } from '../packages/contract/src/paths.ts';
import { startTemporaryPostgres } from '../scripts/postgres.ts';
import { recountAll } from '../apps/server/src/modules/outbreak/outbreak.repo.ts';
import { createTestApp } from '../apps/server/test/support/app.ts';
import { createExtensionRepo } from '../apps/server/src/modules/extension/extension.repo.ts';
import { createEscalationService } from '../apps/server/src/modules/review/escalation.service.ts';
import { weekStartOf } from '../apps/server/src/lib/iso-weeks.ts';
import { raiseMaizeAlert, seedDistrictFarmers } from '../apps/server/test/support/farmers.ts';
import { createUser } from '../apps/server/test/support/users.ts';
import { extensionSources, outbreakSources } from '../apps/server/src/ports.ts';

const FARMERS = Number(process.env.BENCH_FARMERS ?? 10_000);
const ANALYSES = Number(process.env.BENCH_ANALYSES ?? 200_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 100);
const PDF_RUNS = Number(process.env.BENCH_PDF_RUNS ?? 20);
const PGLITE = process.env.BENCH_PGLITE === '1';
const DISTRICT = 'UG-208';

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const ms = (x: number) => `${x.toFixed(1)} ms`;
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

const pg = PGLITE ? null : await startTemporaryPostgres();
if (pg) process.env.TEST_DATABASE_URL = pg.url;
const t = await createTestApp();
try {
  const db = t.deps.database;
  const expert = await createUser(t, 'expert');
  const officer = await createUser(t, 'officer', { districts: [DISTRICT] });
  let started = performance.now();
  await seedDistrictFarmers(db, DISTRICT, FARMERS, 31);
  const firstFarmer = Number(
    (await db.execute(`select min(id) as id from users where username like 'fan31_%'`)).rows[0].id,
  );
  // A year of analyses back from now, spread over the farmers; deterministic by i.
  await db.execute(
    `insert into analyses (user_id, image_path, outcome, rust_class, confidence, unsure, probabilities, model_version, crop, created_at)
     select $1 + (i * 7919) % $2, 'analyses/bench.jpg', 'diagnosis',
       case when i % 3 = 0 then 'common_rust' when i % 3 = 1 then 'healthy' else 'other_disease' end,
       0.9, i % 17 = 0,
       jsonb_build_object('common_rust', 0.9, 'healthy', 0.05, 'other_disease', 0.05), 'v-bench',
       case when i % 5 < 3 then 'maize' when i % 5 = 3 then 'beans' else null end,
       now() - ((i * 104729) % (365 * 86400)) * interval '1 second'
     from generate_series(1::bigint, $3::bigint) as i`,
    [firstFarmer, FARMERS, ANALYSES],
  );
  await db.execute(
    `insert into expert_reviews (analysis_id, reviewer_id, verdict, reviewed_at)
     select id, $1, case when id % 10 = 0 then 'healthy' else 'common_rust' end, now()
     from analyses where rust_class = 'common_rust' and id % 5 = 0`,
    [expert.id],
  );
  // Questions still waiting for an expert: one photo in 400.
  await db.execute(
    `insert into expert_reviews (analysis_id, question, asked_at)
     select id, 'Is it rust?', created_at from analyses where id % 400 = 1 on conflict do nothing`,
  );
  // Follow-ups of a tenth of the rust photos, closed a week later, one in four "worse", each of its farmer's field.
  await db.execute(
    `insert into fields (user_id, name, crop, number, created_at, updated_at)
     select distinct user_id, 'Maize field', 'maize', 1, now(), now()
     from analyses where rust_class = 'common_rust' and id % 10 = 3`,
  );
  await db.execute(
    `insert into follow_ups (user_id, field_id, analysis_id, crop, due_at, state, outcome, closed_at, created_at)
     select a.user_id, f.id, a.id, 'maize', a.created_at + interval '7 days', 'compared',
       case a.id % 4 when 0 then 'worse' when 1 then 'less' when 2 then 'better' else 'unclear' end,
       least(a.created_at + interval '7 days', now()), a.created_at
     from analyses a join fields f on f.user_id = a.user_id
     where a.rust_class = 'common_rust' and a.id % 10 = 3`,
  );
  await db.execute(
    `insert into callback_requests (user_id, language, channel, created_at, done_at)
     select user_id, 'en', 'ussd', created_at, case when id % 2 = 0 then created_at + interval '1 day' end
     from analyses where id % 500 = 7`,
  );
  await db.execute(
    `insert into clinic_visits (expert_id, farmer_id, crop, growth_stage, share_affected, analysis_ids, verdict, decided_at, created_at)
     select $1, user_id, 'maize', 'tasseling', 20, array[id], 'common_rust', created_at, created_at
     from analyses where id % 300 = 11`,
    [expert.id],
  );
  console.log(`seeded ${FARMERS} farmers and ${ANALYSES} analyses in ${Math.round(performance.now() - started)} ms`);
  started = performance.now();
  const { cases, counts } = await recountAll(db.db, new Date(), outbreakSources);
  console.log(`recount: ${cases} cases, ${counts} counts in ${Math.round(performance.now() - started)} ms`);
  // The open alert, told to every farmer: the notification and SMS outbox row the fan-out writes for
  // each (as SQL here: the fan-out's own speed is bench/fanout.ts's), a few failed, most sent.
  const open = await db.execute(`select id from outbreak_alerts where district = $1 and ended_at is null`, [DISTRICT]);
  const alertId = open.rows.length > 0 ? Number(open.rows[0].id) : await raiseMaizeAlert(db, DISTRICT);
  await db.execute(
    `insert into notifications (user_id, type, message, data, key, created_at)
     select id, 'outbreak_alert', 'Rust alert', '{}'::jsonb, 'outbreak:' || $1 || '|' || id, now()
     from users where district = $2 and role = 'farmer'`,
    [alertId, DISTRICT],
  );
  await db.execute(
    `insert into deliveries (key, user_id, channel, kind, body, state, next_at, created_at)
     select 'outbreak:' || $1 || '|' || id || '|sms', id, 'sms', 'alert', '{"key":"outbreak.alert.sms"}'::jsonb,
       case when id % 50 = 0 then 'failed' when id % 20 = 0 then 'waiting' else 'sent' end, now(), now()
     from users where district = $2 and role = 'farmer'`,
    [alertId, DISTRICT],
  );
  // Other messages of the year in the outbox: the week's query must not read them.
  await db.execute(
    `insert into deliveries (key, user_id, channel, kind, body, state, next_at, created_at)
     select 'bench:' || g || '|' || u.id || '|sms', u.id, 'sms', 'service', '{"key":"followUp.sms"}'::jsonb, 'sent', now(), now()
     from users u cross join generate_series(1, 5) g where u.district = $1 and u.role = 'farmer'`,
    [DISTRICT],
  );
  await db.execute('vacuum analyze');
  console.log(`database: ${pg ? 'PostgreSQL' : 'PGlite'}; load average ${load()}`);

  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: officer.headers });
  for (let i = 0; i < 10; i++) await get(extensionApi.weekPath(DISTRICT));
  const weekTimes: number[] = [];
  let farmersListed = 0;
  for (let i = 0; i < RUNS; i++) {
    const s = performance.now();
    const res = await get(extensionApi.weekPath(DISTRICT));
    weekTimes.push(performance.now() - s);
    if (res.statusCode !== 200) throw new Error(`week answered ${res.statusCode}: ${res.body}`);
    farmersListed = (res.json() as { farmers: unknown[] }).farmers.length;
  }
  const pdfTimes: number[] = [];
  let bytes = 0;
  for (let i = 0; i < PDF_RUNS; i++) {
    const s = performance.now();
    const res = await get(extensionApi.reportPdfPath(DISTRICT));
    pdfTimes.push(performance.now() - s);
    if (res.statusCode !== 200) throw new Error(`PDF answered ${res.statusCode}`);
    bytes = res.rawPayload.length;
  }
  console.log(
    `week (${farmersListed} farmers to call listed): p50 ${ms(pct(weekTimes, 50))}, p95 ${ms(pct(weekTimes, 95))} over ${RUNS} (target p95 <= 200 ms)`,
  );
  console.log(
    `PDF (${bytes} bytes): p50 ${ms(pct(pdfTimes, 50))}, p95 ${ms(pct(pdfTimes, 95))} over ${PDF_RUNS} (target <= 2000 ms)`,
  );
  // Where the week's time goes: each part of the read on its own (median of 20).
  const repo = createExtensionRepo(db.db, extensionSources);
  const monday = new Date(`${weekStartOf(new Date())}T00:00:00Z`);
  const w = { district: DISTRICT, from: monday, to: new Date(monday.getTime() + 7 * 86_400_000) };
  const parts: [string, () => Promise<unknown>][] = [
    ['alerts and outbox', () => repo.alerts(w)],
    ['clinic', () => repo.clinic(w)],
    ['follow-ups', () => repo.followUps(w)],
    ['waiting for an expert', () => createEscalationService(db.db).waitingIn(DISTRICT)],
    ['farmers to call', () => repo.farmers(w)],
  ];
  for (const [name, run] of parts) {
    const times: number[] = [];
    for (let i = 0; i < 20; i++) {
      const s = performance.now();
      await run();
      times.push(performance.now() - s);
    }
    console.log(`  ${name}: p50 ${ms(pct(times, 50))}`);
  }
  console.log(`load average ${load()}`);
} finally {
  await t.close();
  pg?.stop();
}
