/**
 * `npm run outbreak:recount`: rebuilds outbreak watch's counts from the analyses and verdicts (repair
 * only; confirmations update the counts incrementally, docs/decisions/0031). Uses DATABASE_URL, or the
 * embedded PGlite data directory, as the server does.
 */
import path from 'node:path';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { analysisCaseSql } from '../modules/analysis/analysis.service.ts';
import { clinicSmsFarmerSql } from '../modules/clinic/clinic.service.ts';
import { verdictCaseSql } from '../modules/review/review.service.ts';
import { recountAll } from '../modules/outbreak/outbreak.repo.ts';

const config = loadConfig(process.env);
const database = await openDatabase({ url: config.databaseUrl, pgliteDir: path.join(config.dataDir, 'db') });
await database.migrate();
const started = performance.now();
const { cases, counts } = await recountAll(database.db, new Date(), {
  analyses: analysisCaseSql,
  verdicts: verdictCaseSql,
  clinicFarmerSql: clinicSmsFarmerSql,
});
console.log(
  `outbreak recount: ${cases} cases, ${counts} district-crop-week counts in ${Math.round(performance.now() - started)} ms`,
);
await database.close();
