/**
 * `npm run outbreak:demo`: try-out data for outbreak watch, only when asked for. Adds demo farmers
 * (flagged `users.demo`, named `demo_outbreak_*`, no password: they cannot sign in) in a few districts with rust photos
 * over the last 12 weeks, some confirmed, and counts them. Every analysis is flagged `demo`, so the map,
 * trend, table and CSV mark it as try-out data; demo cases never raise alerts and never reach the open
 * feed. Run it again to add nothing twice; `--remove` takes it all away. Uses DATABASE_URL, or the
 * embedded PGlite data directory, as the server does.
 */
import path from 'node:path';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { addDemoAnalysis } from '../modules/analysis/analysis.service.ts';
import {
  addDemoFarmer,
  countDemoFarmers,
  DEMO_USERNAME_PREFIX,
  removeDemoUsers,
} from '../modules/auth/account.service.ts';
import { recountOutbreak } from '../modules/outbreak/outbreak.service.ts';
import { addDemoVerdict } from '../modules/review/review.service.ts';
import { outbreakSources } from '../ports.ts';

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
  const r = await recountOutbreak(db, outbreakSources);
  console.log(`outbreak demo data removed; counts rebuilt (${r.counts} rows)`);
} else if ((await countDemoFarmers(db)) > 0) {
  console.log('outbreak demo data is already there (npm run outbreak:demo -- --remove takes it away)');
} else {
  const now = Date.now();
  let n = 0;
  for (const { district, farmers } of DEMO) {
    for (let i = 0; i < farmers; i++) {
      n += 1;
      const username = `${DEMO_USERNAME_PREFIX}${district.toLowerCase()}_${i + 1}`;
      const userId = await addDemoFarmer(db, { username, phone: `+2560000${String(n).padStart(5, '0')}`, district });
      // One rust photo a week in some of the last 12 weeks; the latest ones confirmed.
      for (let week = 0; week < 12; week += 1 + ((i + week) % 3)) {
        const at = new Date(now - week * 7 * 86_400_000 - i * 3_600_000);
        const analysisId = await addDemoAnalysis(db, userId, at);
        if (week < 2 && i % 2 === 0) await addDemoVerdict(db, analysisId, at);
      }
    }
  }
  const r = await recountOutbreak(db, outbreakSources);
  console.log(
    `outbreak demo data added: ${n} demo farmers in ${DEMO.length} districts; counts rebuilt (${r.counts} rows)`,
  );
}
await database.close();
