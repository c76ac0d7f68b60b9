import type { WeatherFetch, WeatherPoint } from '../../adapters/weather.ts';
import type { WeatherRow } from './forecast.repo.ts';
import type { DistrictWeather } from './week.ts';

/** Each district's points, [latitude, longitude], its centre first (docs/decisions/0134). */
type DistrictPoints = ReadonlyMap<string, readonly (readonly [number, number])[]>;

/**
 * The places to fetch for the districts' points, each distinct place once (a district newer than the boundary
 * file shares its parent's), and the cache rows a fetch makes: a place's hours and elevation for every
 * district point it stands for.
 */
export function placesOf(points: DistrictPoints) {
  const users = new Map<string, { district: string; point: number }[]>();
  for (const [district, list] of points)
    for (const [point, [lat, lng]] of list.entries()) {
      const key = `${lat},${lng}`;
      (users.get(key) ?? users.set(key, []).get(key)!).push({ district, point });
    }
  const places: WeatherPoint[] = [...users.keys()].map((code) => {
    const [lat, lng] = code.split(',').map(Number);
    return { code, lat, lng };
  });
  const rows = ({ hours, elevations }: WeatherFetch): WeatherRow[] =>
    [...hours].flatMap(([code, h]) =>
      (users.get(code) ?? []).map((u) => ({ ...u, hours: h, elevation: elevations.get(code) ?? null })),
    );
  return { places, rows };
}

/** The cached rows by district and point, as forecastWeek reads them. */
export function byDistrict(rows: readonly WeatherRow[]): DistrictWeather {
  const weather: DistrictWeather = new Map();
  for (const w of rows) {
    const at = weather.get(w.district) ?? weather.set(w.district, new Map()).get(w.district)!;
    at.set(w.point, { hours: w.hours, elevation: w.elevation });
  }
  return weather;
}
