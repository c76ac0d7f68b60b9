/**
 * A local Open-Meteo for the end-to-end run (no test reaches the internet): `/v1/forecast` answers every
 * place with the recorded-style reply of cool wet nights (apps/server/test/fixtures/open-meteo/), its 168
 * hours moved to start today in East Africa Time, as an array for a list of places, as the service does.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const port = Number(process.argv[2] ?? 9181);
const reply = JSON.parse(
  readFileSync(new URL('../apps/server/test/fixtures/open-meteo/cool-wet-nights.json', import.meta.url), 'utf8'),
) as { hourly: { time: string[] } };

function today(): string[] {
  const eat = new Date(Date.now() + 3 * 3_600_000);
  const start = Date.UTC(eat.getUTCFullYear(), eat.getUTCMonth(), eat.getUTCDate());
  return reply.hourly.time.map((_, i) => new Date(start + i * 3_600_000).toISOString().slice(0, 16));
}

createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://stub');
  if (url.pathname === '/health') return void res.end('ok');
  const lats = (url.searchParams.get('latitude') ?? '').split(',');
  const lngs = (url.searchParams.get('longitude') ?? '').split(',');
  const time = today();
  const body = lats.map((lat, i) => ({
    ...reply,
    latitude: Number(lat),
    longitude: Number(lngs[i]),
    hourly: { ...reply.hourly, time },
  }));
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body.length === 1 ? body[0] : body));
}).listen(port, '127.0.0.1');
