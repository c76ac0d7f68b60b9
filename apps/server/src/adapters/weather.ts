import type { WeatherHour } from '@kutu/contract';

/** A place whose weather is fetched: one of a district's points (docs/decisions/0134). */
export type WeatherPoint = { code: string; lat: number; lng: number };

/**
 * What a fetch brought: the checked hours by point code, each point's elevation (metres, as the service's model
 * has it; absent when it gave none worth believing), and the points whose reply failed a check, with why.
 */
export type WeatherFetch = {
  hours: Map<string, WeatherHour[]>;
  elevations: Map<string, number>;
  refused: { code: string; reason: string }[];
};

/** Hourly weather for yesterday and the next 7 days at each point, or the reason there is none. */
export interface WeatherSource {
  /** Checked hours by point code; throws WeatherUnavailable when the service cannot be reached or its whole answer is wrong. */
  forecast(points: readonly WeatherPoint[]): Promise<WeatherFetch>;
  /** What is asked (for logs and the health of the forecast): the service's address, or `off`. */
  readonly describe: string;
}

export class WeatherUnavailable extends Error {}

/** Locations per request: Open-Meteo takes comma-separated lists and answers with an array. */
export const WEATHER_BATCH = 50;
/** Yesterday's hours too, so that a wet night that began last evening counts whole (docs/decisions/0126). */
export const PAST_DAYS = 1;
export const FORECAST_DAYS = 7;
/** The most hours a place's reply may hold: the days asked for, no more. */
export const MAX_HOURS = (PAST_DAYS + FORECAST_DAYS) * 24;
/** The most bytes a reply may take per place asked (a real one is about 15 kB). */
export const MAX_BYTES_PER_POINT = 40_000;
/** Under this share of usable hours a place's reply is refused whole (all nulls, strings, nonsense). */
export const MIN_KNOWN_SHARE = 0.5;
/** Over this share of hours with a value out of its range, a place's reply is refused whole, not patched. */
export const MAX_BAD_SHARE = 0.05;
/** East Africa Time, which the rules' local days assume. */
const UTC_OFFSET_SECONDS = 10_800;

/** Each variable asked, the unit the rules expect of it, and its physical range (an hour outside it is unknown). */
const HOURLY = {
  temperature_2m: { unit: '°C', min: -40, max: 60 },
  relative_humidity_2m: { unit: '%', min: 0, max: 100 },
  dew_point_2m: { unit: '°C', min: -40, max: 60 },
  precipitation: { unit: 'mm', min: 0, max: 500 },
  wind_speed_10m: { unit: 'km/h', min: 0, max: 500 },
  wind_direction_10m: { unit: '°', min: 0, max: 360 },
} as const;
type Variable = keyof typeof HOURLY;
const VARIABLES = Object.keys(HOURLY) as Variable[];
/** A dew point may exceed the air's temperature by this much (°C: rounding, supersaturation); more is a wrong unit. */
const DEW_TOLERANCE_C = 0.5;
const TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:00$/;

type OpenMeteoReply = {
  error?: boolean;
  elevation?: unknown;
  reason?: string;
  utc_offset_seconds?: unknown;
  hourly_units?: Record<string, unknown>;
  hourly?: Record<string, unknown>;
};

class Refused extends Error {}

/** One hour, checked: any value of the wrong type or outside its range makes the whole hour unknown (`bad`). */
function checkedHour(time: string, v: Record<Variable, unknown>): WeatherHour & { bad?: true } {
  const unknown: WeatherHour & { bad: true } = {
    bad: true,
    time,
    tempC: null,
    humidity: null,
    dewPointC: null,
    rainMm: null,
    windKmh: null,
    windFromDeg: null,
  };
  const n: Partial<Record<Variable, number | null>> = {};
  for (const name of VARIABLES) {
    const x = v[name];
    if (x === null || x === undefined) n[name] = null;
    else if (typeof x !== 'number' || !Number.isFinite(x) || x < HOURLY[name].min || x > HOURLY[name].max)
      return unknown;
    else n[name] = x;
  }
  const t = n.temperature_2m ?? null;
  const dew = n.dew_point_2m ?? null;
  if (t !== null && dew !== null && dew > t + DEW_TOLERANCE_C) return unknown;
  return {
    time,
    tempC: t,
    humidity: n.relative_humidity_2m ?? null,
    dewPointC: dew,
    rainMm: n.precipitation ?? null,
    windKmh: n.wind_speed_10m ?? null,
    windFromDeg: n.wind_direction_10m ?? null,
  };
}

/** A place's reply, checked before it is believed (docs/decisions/0126); throws Refused with the reason. */
export function hoursOf(reply: OpenMeteoReply): WeatherHour[] {
  if (typeof reply !== 'object' || reply === null) throw new Refused('a place answered without an object');
  if (reply.error) throw new Refused(`the service refused: ${String(reply.reason ?? 'no reason given')}`);
  if (reply.utc_offset_seconds !== UTC_OFFSET_SECONDS)
    throw new Refused(`utc_offset_seconds ${String(reply.utc_offset_seconds)}, not ${UTC_OFFSET_SECONDS}`);
  const units = reply.hourly_units ?? {};
  for (const name of VARIABLES)
    if (units[name] !== HOURLY[name].unit)
      throw new Refused(`${name} in ${String(units[name])}, not ${HOURLY[name].unit}`);
  const h = reply.hourly;
  const time = h?.time;
  if (!h || !Array.isArray(time) || time.length === 0) throw new Refused('no hours');
  if (time.length > MAX_HOURS) throw new Refused(`${time.length} hours, more than the ${MAX_HOURS} asked`);
  for (const [i, t] of time.entries()) {
    if (typeof t !== 'string' || !TIME.test(t)) throw new Refused(`hour ${i} is ${JSON.stringify(t)}`);
    if (i > 0 && Date.parse(`${t}Z`) - Date.parse(`${time[i - 1]}Z`) !== 3_600_000)
      throw new Refused(`hour ${i} (${t}) does not follow ${time[i - 1]}`);
  }
  const columns = {} as Record<Variable, unknown[]>;
  for (const name of VARIABLES) {
    const col = h[name];
    if (!Array.isArray(col) || col.length !== time.length)
      throw new Refused(`${name} has ${Array.isArray(col) ? col.length : 'no'} values for ${time.length} hours`);
    columns[name] = col;
  }
  const checked = (time as string[]).map((t, i) =>
    checkedHour(t, Object.fromEntries(VARIABLES.map((name) => [name, columns[name][i]])) as Record<Variable, unknown>),
  );
  const bad = checked.filter((x) => x.bad).length;
  if (bad > checked.length * MAX_BAD_SHARE) throw new Refused(`${bad} of ${checked.length} hours out of range`);
  const hours = checked.map(({ bad: _, ...x }) => x);
  const known = hours.filter((x) => x.tempC !== null && (x.humidity !== null || x.dewPointC !== null)).length;
  if (known < hours.length * MIN_KNOWN_SHARE) throw new Refused(`only ${known} of ${hours.length} hours usable`);
  return hours;
}

/** The lowest and highest ground in East Africa (m): Lake Assal's shore (−155 m) to Kilimanjaro (5,895 m). */
const ELEVATION_RANGE = [-200, 5_900] as const;

/** A place's elevation from its reply (metres, rounded), or null when it gave none or one no place has. */
function elevationOf(reply: OpenMeteoReply): number | null {
  const e = reply?.elevation;
  if (typeof e !== 'number' || !Number.isFinite(e) || e < ELEVATION_RANGE[0] || e > ELEVATION_RANGE[1]) return null;
  return Math.round(e);
}

/** The body, read up to `limit` bytes: a bigger one is refused before it fills the memory. */
async function boundedText(res: Response, limit: number): Promise<string> {
  const declared = Number(res.headers.get('content-length') ?? 0);
  if (declared > limit) throw new WeatherUnavailable(`the weather service answered ${declared} bytes, over ${limit}`);
  const reader = res.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw new WeatherUnavailable(`the weather service answered over ${limit} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Open-Meteo's JSON forecast API (`/v1/forecast`), the public service or a self-hosted one (docs/deploy.md):
 * hourly temperature, humidity, dew point, rain and 10 m wind for yesterday and 7 days, in East Africa Time
 * (Uganda's and Kenya's), `batch` points a request. Each request gives up after `timeoutMs`, so a machine
 * without internet learns "weather unknown" in seconds. Every reply is checked (hoursOf) before it is believed.
 */
export function createOpenMeteo(opts: { url: string; timeoutMs: number; batch?: number }): WeatherSource {
  const base = opts.url.replace(/\/$/, '');
  const batch = opts.batch ?? WEATHER_BATCH;
  async function fetchBatch(points: readonly WeatherPoint[]): Promise<unknown[]> {
    const query = new URLSearchParams({
      latitude: points.map((p) => p.lat).join(','),
      longitude: points.map((p) => p.lng).join(','),
      hourly: VARIABLES.join(','),
      past_days: String(PAST_DAYS),
      forecast_days: String(FORECAST_DAYS),
      timezone: 'Africa/Nairobi',
      temperature_unit: 'celsius',
      wind_speed_unit: 'kmh',
      precipitation_unit: 'mm',
    });
    let res: Response;
    try {
      res = await fetch(`${base}/v1/forecast?${query}`, { signal: AbortSignal.timeout(opts.timeoutMs) });
    } catch (err) {
      // fetch says only "fetch failed"; its cause says why (refused, reset, not found).
      const cause = (err as { cause?: { message?: string } }).cause?.message;
      throw new WeatherUnavailable(
        `the weather service could not be reached: ${(err as Error).message}${cause ? ` (${cause})` : ''}`,
      );
    }
    let text: string;
    try {
      text = await boundedText(res, points.length * MAX_BYTES_PER_POINT);
    } catch (err) {
      if (err instanceof WeatherUnavailable) throw err;
      throw new WeatherUnavailable(`the weather service's answer broke off: ${(err as Error).message}`);
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new WeatherUnavailable(`the weather service answered ${res.status} with something other than JSON`);
    }
    const reason = (body as OpenMeteoReply | null)?.error ? ` (${String((body as OpenMeteoReply).reason)})` : '';
    if (!res.ok || reason) throw new WeatherUnavailable(`the weather service answered ${res.status}${reason}`);
    const replies = Array.isArray(body) ? body : [body];
    if (replies.length !== points.length) {
      throw new WeatherUnavailable(`the weather service answered ${replies.length} places for ${points.length}`);
    }
    return replies;
  }
  return {
    describe: base,
    async forecast(points) {
      const out: WeatherFetch = { hours: new Map(), elevations: new Map(), refused: [] };
      for (let i = 0; i < points.length; i += batch) {
        const part = points.slice(i, i + batch);
        const replies = await fetchBatch(part);
        for (const [j, p] of part.entries()) {
          try {
            out.hours.set(p.code, hoursOf(replies[j] as OpenMeteoReply));
            const elevation = elevationOf(replies[j] as OpenMeteoReply);
            if (elevation !== null) out.elevations.set(p.code, elevation);
          } catch (err) {
            if (!(err instanceof Refused)) throw err;
            out.refused.push({ code: p.code, reason: err.message });
          }
        }
      }
      return out;
    },
  };
}

/** WEATHER_URL=off: no weather is ever fetched, and every forecast says "weather unknown". */
export const noWeather: WeatherSource = {
  describe: 'off',
  forecast: () => Promise.reject(new WeatherUnavailable('weather fetching is off (WEATHER_URL=off)')),
};
