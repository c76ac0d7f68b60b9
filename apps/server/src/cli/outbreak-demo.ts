/**
 * `npm run outbreak:demo`: try-out data for outbreak watch, only when asked for. Adds demo farmers
 * (flagged `users.demo`, named `demo_outbreak_*`, no password: they cannot sign in) in a few districts with rust photos
 * over the last 12 weeks, some confirmed, and counts them. Every analysis is flagged `demo`, so the map,
 * trend, table and CSV mark it as try-out data; demo cases never raise alerts and never reach the open
 * feed. Run it again to add nothing twice; `--remove` takes it all away. Uses DATABASE_URL, or the
 * embedded PGlite data directory, as the server does.
 */
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { DEMO_USERNAME_PREFIX, demoUsers, removeDemoUsers } from '../modules/outbreak/demo-users.ts';
import { analysisCaseSql } from '../modules/analysis/analysis.service.ts';
import { clinicSmsFarmerSql } from '../modules/clinic/clinic.service.ts';
import { verdictCaseSql } from '../modules/review/review.service.ts';
import { recountAll } from '../modules/outbreak/outbreak.repo.ts';

/** Districts with try-out cases: Kumi, Bukedea, Mbale (UG), Bungoma, Trans-Nzoia (KE). */
const DEMO = [
  { district: 'UG-208', farmers: 8 },
  { district: 'UG-219', farmers: 5 },
  { district: 'UG-209', farmers: 3 },
  { district: 'KE-03', farmers: 6 },
  { district: 'KE-26', farmers: 2 },
];

const config = loadConfig(process.env);
const database = await openDatabase({ url: config.databaseUrl, pgliteDir: path.join(config.dataDir, 'db') });
await database.migrate();
const { db } = database;

if (process.argv.includes('--remove')) {
  await removeDemoUsers(db);
  const r = await recountAll(db, new Date(), {
    analyses: analysisCaseSql,
    verdicts: verdictCaseSql,
    clinicFarmerSql: clinicSmsFarmerSql,
  });
  console.log(`outbreak demo data removed; counts rebuilt (${r.counts} rows)`);
} else {
  const existing = await db.execute(sql`select count(*)::int as n from users where ${demoUsers}`);
  if (Number((existing as unknown as { rows: { n: number }[] }).rows[0].n) > 0) {
    console.log('outbreak demo data is already there (npm run outbreak:demo -- --remove takes it away)');
  } else {
    const now = Date.now();
    let n = 0;
    for (const { district, farmers } of DEMO) {
      for (let i = 0; i < farmers; i++) {
        n += 1;
        const username = `${DEMO_USERNAME_PREFIX}${district.toLowerCase()}_${i + 1}`;
        const res =
          await db.execute(sql`insert into users (email, username, role, phone, district, activated_at, sms_alerts, demo)
          values (null, ${username}, 'farmer', ${`+2560000${String(n).padStart(5, '0')}`}, ${district}, now(), false, true)
          returning id`);
        const userId = (res as unknown as { rows: { id: number }[] }).rows[0].id;
        await db.execute(sql`insert into farmer_profiles (user_id, farm_location, farm_size, crop_types)
          values (${userId}, 'Demo farm (try-out data)', 1, '{MAIZE}')`);
        // One rust photo a week in some of the last 12 weeks; the latest ones confirmed.
        for (let week = 0; week < 12; week += 1 + ((i + week) % 3)) {
          const at = new Date(now - week * 7 * 86_400_000 - i * 3_600_000);
          const a =
            await db.execute(sql`insert into analyses (user_id, image_path, outcome, rust_class, confidence, unsure,
              probabilities, model_version, crop, created_at, demo)
            values (${userId}, 'demo/none.jpg', 'diagnosis', 'common_rust', 0.91, false,
              ${JSON.stringify({ common_rust: 0.91, healthy: 0.05, other_disease: 0.04 })}::jsonb, 'demo', 'maize', ${at}, true)
            returning id`);
          const analysisId = (a as unknown as { rows: { id: number }[] }).rows[0].id;
          if (week < 2 && i % 2 === 0) {
            await db.execute(sql`insert into expert_reviews (analysis_id, verdict, note, reviewed_at)
              values (${analysisId}, 'common_rust', 'Try-out data', ${at})`);
          }
        }
      }
    }
    const r = await recountAll(db, new Date(), {
      analyses: analysisCaseSql,
      verdicts: verdictCaseSql,
      clinicFarmerSql: clinicSmsFarmerSql,
    });
    console.log(
      `outbreak demo data added: ${n} demo farmers in ${DEMO.length} districts; counts rebuilt (${r.counts} rows)`,
    );
  }
}
await database.close();
