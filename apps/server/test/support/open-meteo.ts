/**
 * A local Open-Meteo (`/v1/forecast`), shaped as the real service answers (docs/decisions/0100, 0126): one
 * object per place with `utc_offset_seconds`, `timezone`, `elevation`, `hourly_units` and `hourly` arrays
 * (nulls where it has no value), an array of them for a list of places, `past_days` hours before today, and
 * `{"error":true,"reason":"..."}` with 400 for a request it cannot answer. Each place answers for its own
 * coordinates, with its own elevation (`stubElevation` unless a test gives one: the service's is its model's
 * ground height at the place), as a district is read at several points (docs/decisions/0134). Used by the
 * server's forecast tests and the end-to-end stub (e2e/weather-stub.ts).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { districtPoints } from '@kutu/contract/district-points';

export const OPEN_METEO_VARIABLES = [
  'temperature_2m',
  'relative_humidity_2m',
  'dew_point_2m',
  'precipitation',
  'wind_speed_10m',
  'wind_direction_10m',
] as const;
export type OpenMeteoVariable = (typeof OPEN_METEO_VARIABLES)[number];
/** An hour's values (null: the service has none; anything else for a reply that is wrong on purpose). */
export type OpenMeteoHour = Partial<Record<OpenMeteoVariable, unknown>>;

export const OPEN_METEO_UNITS: Record<'time' | OpenMeteoVariable, string> = {
  time: 'iso8601',
  temperature_2m: '°C',
  relative_humidity_2m: '%',
  dew_point_2m: '°C',
  precipitation: 'mm',
  wind_speed_10m: 'km/h',
  wind_direction_10m: '°',
};

/** What a request asked: the places, and the days before and from today (as the service reads them). */
export type OpenMeteoRequest = {
  places: { lat: number; lng: number }[];
  pastDays: number;
  forecastDays: number;
  url: URL;
};

/** Local (East Africa Time) hour stamps from `firstDay` 00:00, `count` of them, as the service writes them. */
export function hourStamps(firstDay: string, count: number): string[] {
  const start = Date.parse(`${firstDay}T00:00:00Z`);
  return Array.from({ length: count }, (_, i) => new Date(start + i * 3_600_000).toISOString().slice(0, 16));
}

/**
 * A made-up but steady ground height for a place (m, 700-1,900): the same coordinates always answer the same,
 * and places a few km apart differ, as a district's points from lowland to highland do.
 */
function stubElevation(place: { lat: number; lng: number }): number {
  return Math.round(1300 + 400 * Math.sin(place.lat * 9) + 200 * Math.cos(place.lng * 7));
}

/** The answer to a request of one place or many: each place's reply from `reply`, one object or an array. */
export function perPlace(q: Pick<OpenMeteoRequest, 'places'>, reply: (place: { lat: number; lng: number }) => unknown) {
  const body = q.places.map(reply);
  return body.length === 1 ? body[0] : body;
}

/**
 * Only the named districts' points, for the app's `weatherPoints` (docs/decisions/0134): a test that reads a
 * few districts has each run fetch and store their places, not the country's 721 (4 s and more a run on a
 * busy machine, most of it writing the week's hours of every place); the other districts read "unknown".
 */
export function weatherPointsOf(...codes: string[]): ReadonlyMap<string, readonly (readonly [number, number])[]> {
  return new Map(
    codes.map((code) => {
      const points = districtPoints.get(code);
      if (!points) throw new Error(`no district ${code}`);
      return [code, points] as const;
    }),
  );
}

/**
 * A highland hour (`time` a local stamp, as `hourStamps` writes it): dew from 20:00 to 07:00 at 20 °C (11 h a
 * night: enough for both rusts), dry days at 26 °C.
 */
export const coolDewNight = (time: string): OpenMeteoHour => {
  const h = Number(time.slice(11, 13));
  const night = h >= 20 || h < 7;
  return {
    temperature_2m: night ? 20 : 26,
    relative_humidity_2m: night ? 97 : 60,
    dew_point_2m: night ? 19.5 : 17.5,
    precipitation: 0,
    wind_speed_10m: 8,
    wind_direction_10m: 95,
  };
};

/** The local date `days` after (or before) `day`. */
export const dayAfter = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** One place's reply: the hours from `firstDay` 00:00, each hour's values from `at`. */
export function openMeteoReply(
  place: { lat: number; lng: number },
  firstDay: string,
  count: number,
  at: (time: string, i: number) => OpenMeteoHour,
  elevation = stubElevation(place),
) {
  const time = hourStamps(firstDay, count);
  const values = time.map(at);
  return {
    latitude: place.lat,
    longitude: place.lng,
    generationtime_ms: 0.81,
    utc_offset_seconds: 10_800,
    timezone: 'Africa/Nairobi',
    timezone_abbreviation: 'GMT+3',
    elevation,
    hourly_units: { ...OPEN_METEO_UNITS },
    hourly: {
      time,
      ...Object.fromEntries(OPEN_METEO_VARIABLES.map((v) => [v, values.map((h) => (v in h ? h[v] : null))])),
    } as Record<string, unknown[]>,
  };
}

/**
 * A recorded-style reply (apps/server/test/fixtures/open-meteo/) moved to start `past_days` before `today`,
 * its hours repeated to the days asked (the fixtures' days are alike).
 */
export function movedReply(
  recorded: { hourly: Record<string, unknown[]> },
  place: { lat: number; lng: number },
  today: string,
  q: Pick<OpenMeteoRequest, 'pastDays' | 'forecastDays'>,
  elevation = stubElevation(place),
) {
  const n = recorded.hourly.time.length;
  return openMeteoReply(
    place,
    dayAfter(today, -q.pastDays),
    (q.pastDays + q.forecastDays) * 24,
    (_, i) => Object.fromEntries(OPEN_METEO_VARIABLES.map((v) => [v, recorded.hourly[v]?.[i % n] ?? null])),
    elevation,
  );
}

/**
 * Serves `answer` on a free port: what it returns goes out as JSON (one object for one place, an array for
 * more); `{ status, body }` for a status of its own; 'hang-up' drops the connection.
 *
 * Every answer closes its connection (`connection: close`). The stub shares its process with the client, and
 * PGlite's queries run as long chains of promises during which no timer fires: a kept-alive connection could
 * sit past the stub's keep-alive timeout (5 s) with the client's own idle timer not yet run, be reused for the
 * next fetch, and be reset by the stub's overdue timer as the request arrived ("fetch failed", ECONNRESET),
 * so a run on a loaded machine read "weather unknown". The real service is asked hours apart, long after
 * the client let its idle connections go.
 */
export async function startOpenMeteo(
  answer: (q: OpenMeteoRequest) => unknown | { status: number; body: unknown } | 'hang-up',
  port = 0,
): Promise<{ server: Server; url: string; requests: OpenMeteoRequest[] }> {
  const requests: OpenMeteoRequest[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://stub');
    if (url.pathname === '/health') return void res.end('ok');
    const lats = (url.searchParams.get('latitude') ?? '').split(',');
    const lngs = (url.searchParams.get('longitude') ?? '').split(',');
    const q: OpenMeteoRequest = {
      places: lats.map((lat, i) => ({ lat: Number(lat), lng: Number(lngs[i]) })),
      pastDays: Number(url.searchParams.get('past_days') ?? 0),
      forecastDays: Number(url.searchParams.get('forecast_days') ?? 7),
      url,
    };
    if (url.pathname !== '/v1/forecast' || lats.length !== lngs.length || !url.searchParams.get('hourly')) {
      res.writeHead(400, { 'content-type': 'application/json', connection: 'close' });
      return void res.end(JSON.stringify({ error: true, reason: 'Parameter hourly is required' }));
    }
    requests.push(q);
    const a = answer(q);
    if (a === 'hang-up') return void req.socket.destroy();
    const own = a && typeof a === 'object' && 'status' in a && 'body' in a;
    const body = own ? (a as { body: unknown }).body : a;
    res.writeHead(own ? (a as { status: number }).status : 200, {
      'content-type': 'application/json',
      connection: 'close',
    });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  });
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests };
}
