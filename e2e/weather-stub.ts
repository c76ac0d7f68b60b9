/**
 * A local Open-Meteo for the end-to-end run (no test reaches the internet): `/v1/forecast` answers every
 * place with the recorded-style reply of cool wet nights (apps/server/test/fixtures/open-meteo/), moved to
 * start `past_days` before today in East Africa Time, as an array for a list of places, as the service does,
 * each place for its own coordinates and with its own elevation, as a district is read at several points
 * (docs/decisions/0134; the shape: apps/server/test/support/open-meteo.ts).
 */
import { readFileSync } from 'node:fs';
import { movedReply, perPlace, startOpenMeteo } from '../apps/server/test/support/open-meteo.ts';

const port = Number(process.argv[2] ?? 9181);
const reply = JSON.parse(
  readFileSync(new URL('../apps/server/test/fixtures/open-meteo/cool-wet-nights.json', import.meta.url), 'utf8'),
) as { hourly: Record<string, unknown[]> };

const today = () => new Date(Date.now() + 3 * 3_600_000).toISOString().slice(0, 10);

await startOpenMeteo((q) => perPlace(q, (p) => movedReply(reply, p, today(), q)), port);
