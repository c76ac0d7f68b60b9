/**
 * A local Open-Meteo stand-in for the forecast benches (bench/bulletin.ts, bench/forecast-national.ts): it
 * answers every place asked at once with one of the recorded replies (apps/server/test/fixtures/open-meteo/),
 * at that place's coordinates, one object for one place and an array for more.
 */
import { readFileSync } from 'node:fs';
import { createServer, type OutgoingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

const fixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`../apps/server/test/fixtures/open-meteo/${name}.json`, import.meta.url), 'utf8'));

/**
 * Starts the stand-in on a free local port: its URL (the app's WEATHER_URL) and a close. `pick` chooses each
 * place's weather: 'wet' (cool wet nights) or 'dry' (hot and dry); `headers` go on every answer besides its
 * content type.
 */
export async function startWeatherStandIn(
  pick: (lat: number, lng: number) => 'wet' | 'dry',
  headers: OutgoingHttpHeaders = {},
): Promise<{ url: string; close: () => void }> {
  const replies = { wet: fixture('cool-wet-nights'), dry: fixture('hot-dry') };
  const weather = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://stub');
    const lats = (url.searchParams.get('latitude') ?? '').split(',');
    const lngs = (url.searchParams.get('longitude') ?? '').split(',');
    const body = lats.map((lat, i) => ({
      ...replies[pick(Number(lat), Number(lngs[i]))],
      latitude: Number(lat),
      longitude: Number(lngs[i]),
    }));
    res.writeHead(200, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body.length === 1 ? body[0] : body));
  });
  await new Promise<void>((r) => weather.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(weather.address() as AddressInfo).port}`, close: () => weather.close() };
}
