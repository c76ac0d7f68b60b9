/**
 * `npm run outbreak:recount`: rebuilds outbreak watch's counts from the analyses and verdicts (repair
 * only; confirmations update the counts incrementally, docs/decisions/0031). Uses DATABASE_URL, or the
 * embedded PGlite data directory, as the server does.
 */
import path from 'node:path';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { recountOutbreak } from '../modules/outbreak/outbreak.service.ts';
import { outbreakSources } from '../ports.ts';

const config = loadConfig(process.env);
const database = await openDatabase({ url: config.databaseUrl, pgliteDir: path.join(config.dataDir, 'db') });
await database.migrate();
const started = performance.now();
const { cases, counts } = await recountOutbreak(database.db, outbreakSources);
console.log(
  `outbreak recount: ${cases} cases, ${counts} district-crop-week counts in ${Math.round(performance.now() - started)} ms`,
);
await database.close();
