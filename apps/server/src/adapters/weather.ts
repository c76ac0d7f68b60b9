import type { WeatherHour } from '@kutu/contract';

/** A place whose weather is fetched: a district's centre. */
export type WeatherPoint = { code: string; lat: number; lng: number };

/** Hourly weather for the next 7 days at each point, or the reason there is none. */
export interface WeatherSource {
  /** Hours by point code; throws WeatherUnavailable when the service cannot be reached or answers wrong. */
  forecast(points: readonly WeatherPoint[]): Promise<Map<string, WeatherHour[]>>;
  /** What is asked (for logs and the health of the forecast): the service's address, or `off`. */
  readonly describe: string;
}

export class WeatherUnavailable extends Error {}

/** Locations per request: Open-Meteo takes comma-separated lists and answers with an array. */
export const WEATHER_BATCH = 50;
const HOURLY = [
  'temperature_2m',
  'relative_humidity_2m',
  'dew_point_2m',
  'precipitation',
  'wind_speed_10m',
  'wind_direction_10m',
] as const;

type OpenMeteoReply = {
  hourly?: { time?: string[] } & Partial<Record<(typeof HOURLY)[number], (number | null)[]>>;
};

function hoursOf(reply: OpenMeteoReply): WeatherHour[] {
  const h = reply.hourly;
  if (!h?.time || !Array.isArray(h.time)) throw new WeatherUnavailable('the weather service answered without hours');
  const at = (name: (typeof HOURLY)[number], i: number) => {
    const v = h[name]?.[i];
    return typeof v === 'number' && Number.isFinite(v) ? v : null;
  };
  return h.time.map((time, i) => ({
    time,
    tempC: at('temperature_2m', i),
    humidity: at('relative_humidity_2m', i),
    dewPointC: at('dew_point_2m', i),
    rainMm: at('precipitation', i),
    windKmh: at('wind_speed_10m', i),
    windFromDeg: at('wind_direction_10m', i),
  }));
}

/**
 * Open-Meteo's JSON forecast API (`/v1/forecast`), the public service or a self-hosted one (docs/deploy.md):
 * hourly temperature, humidity, dew point, rain and 10 m wind for 7 days, in East Africa Time (Uganda's and
 * Kenya's), `batch` points a request. Each request gives up after `timeoutMs`, so a machine without internet
 * learns "weather unknown" in seconds.
 */
export function createOpenMeteo(opts: { url: string; timeoutMs: number; batch?: number }): WeatherSource {
  const base = opts.url.replace(/\/$/, '');
  const batch = opts.batch ?? WEATHER_BATCH;
  async function fetchBatch(points: readonly WeatherPoint[]): Promise<WeatherHour[][]> {
    const query = new URLSearchParams({
      latitude: points.map((p) => p.lat).join(','),
      longitude: points.map((p) => p.lng).join(','),
      hourly: HOURLY.join(','),
      forecast_days: '7',
      timezone: 'Africa/Nairobi',
    });
    let res: Response;
    try {
      res = await fetch(`${base}/v1/forecast?${query}`, { signal: AbortSignal.timeout(opts.timeoutMs) });
    } catch (err) {
      throw new WeatherUnavailable(`the weather service could not be reached: ${(err as Error).message}`);
    }
    if (!res.ok) throw new WeatherUnavailable(`the weather service answered ${res.status}`);
    let body: unknown;
    try {
      body = await res.json();
    } catch {
      throw new WeatherUnavailable('the weather service answered something other than JSON');
    }
    const replies = (Array.isArray(body) ? body : [body]) as OpenMeteoReply[];
    if (replies.length !== points.length) {
      throw new WeatherUnavailable(`the weather service answered ${replies.length} places for ${points.length}`);
    }
    return replies.map(hoursOf);
  }
  return {
    describe: base,
    async forecast(points) {
      const out = new Map<string, WeatherHour[]>();
      for (let i = 0; i < points.length; i += batch) {
        const part = points.slice(i, i + batch);
        const hours = await fetchBatch(part);
        for (const [j, p] of part.entries()) out.set(p.code, hours[j]);
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
