/**
 * Replays a made-up season through the week's rust forecast (docs/decisions/0100) and prints, by crop, how
 * many days before a district's first confirmation its forecast turned high, and how often a high week had
 * no confirmation after it. `node bench/forecast-season.ts [seed] [days]`.
 *
 * The season: every district's hourly weather from a regional chain of spells (cool wet nights, warm wet
 * nights, dry hot days) that reaches the east a day or two before the west, with local noise; rust seeded in
 * three districts, spreading each day to a neighbour whose weather infects that day (chance SPREAD), seen and
 * confirmed 10-14 days later. The forecast issued each day reads the weather of its 7 days as it will be
 * (a perfect forecast) and the confirmations of the 14 days before it, as the server does.
 * What it cannot show: no real season's weather is reachable here, so neither the forecast's skill nor the
 * bands' fit to Uganda and Kenya is measured; the spread model is this file's, not rust's.
 */
import {
  districts,
  type ForecastCrop,
  forecastCrops,
  type RiskLevel,
  riskOf,
  rustDays,
  type WeatherHour,
  weatherCall,
} from '@kutu/contract';
import { atLeast } from './measured.ts';

const seed = Number(process.argv[2] ?? 7);
const DAYS = Number(process.argv[3] ?? 150);
const SPREAD = 0.08;
const WINDOW = 7;
/** How far before a confirmation a high forecast is looked for (a lead is at most this). */
const LOOK_BACK = 28;
const SEEDS = ['UG-209', 'KE-42', 'UG-403'];

let state = seed >>> 0 || 1;
const rand = () => {
  state ^= state << 13;
  state ^= state >>> 17;
  state ^= state << 5;
  return (state >>> 0) / 4_294_967_296;
};
const between = (a: number, b: number) => a + (b - a) * rand();

type Spell = 'coolWet' | 'warmWet' | 'dryHot';
// The region's spells, a day at a time: a spell holds with 80 %, else moves to another.
const regional: Spell[] = [];
let spell: Spell = 'dryHot';
for (let d = 0; d < DAYS + WINDOW + 2; d++) {
  if (rand() > 0.8) spell = (['coolWet', 'warmWet', 'dryHot'] as const)[Math.floor(rand() * 3)]!;
  regional.push(spell);
}

const codes = districts.map((d) => d.code);
const index = new Map(codes.map((c, i) => [c, i]));
// Weather systems come from the east: a county in Kenya sees a spell up to two days before Uganda's west.
const lag = new Map(districts.map((d) => [d.code, d.country === 'KE' ? 0 : 1 + Math.round(rand())]));

function dayHours(code: string, day: number): WeatherHour[] {
  const local =
    rand() < 0.15
      ? (['coolWet', 'warmWet', 'dryHot'] as const)[Math.floor(rand() * 3)]!
      : regional[Math.max(0, day - (lag.get(code) ?? 0))]!;
  const date = new Date(Date.UTC(2026, 2, 1) + day * 86_400_000).toISOString().slice(0, 10);
  const wet = Math.round(between(5, 13));
  const night = local === 'coolWet' ? between(16.5, 19.5) : local === 'warmWet' ? between(22, 26.5) : between(20, 23);
  return Array.from({ length: 24 }, (_, h) => {
    const inRun = local !== 'dryHot' && (h < Math.floor(wet / 2) || h >= 24 - Math.ceil(wet / 2));
    const temp = inRun ? night : local === 'dryHot' ? between(27, 33) : between(23, 27);
    const humidity = inRun ? between(92, 99) : local === 'dryHot' ? between(30, 55) : between(60, 80);
    return {
      time: `${date}T${String(h).padStart(2, '0')}:00`,
      tempC: temp,
      humidity,
      dewPointC: temp - (inRun ? 1 : 12),
      rainMm: 0,
      windKmh: 8,
      windFromDeg: 90,
    };
  });
}

// Every district's weather call per crop and day (hours read a day at a time, as the forecast reads them).
const calls = new Map<ForecastCrop, ReturnType<typeof weatherCall>[][]>(forecastCrops.map((c) => [c, []]));
for (const code of codes) {
  const hours = Array.from({ length: DAYS + WINDOW }, (_, d) => dayHours(code, d)).flat();
  for (const crop of forecastCrops) calls.get(crop)!.push(rustDays(hours, crop).map((r) => weatherCall(r, crop)));
}

function season(crop: ForecastCrop) {
  const call = calls.get(crop)!;
  const infected = new Array<number>(codes.length).fill(Infinity);
  const confirmed = new Array<number>(codes.length).fill(Infinity);
  for (const s of SEEDS) {
    infected[index.get(s)!] = 0;
    confirmed[index.get(s)!] = 12;
  }
  for (let d = 1; d < DAYS; d++) {
    for (const [i, district] of districts.entries()) {
      if (infected[i]! <= d || call[i]![d] !== 'infects') continue;
      const spores = district.neighbours.some((n) => infected[index.get(n)!]! <= d - 7);
      if (spores && rand() < SPREAD) {
        infected[i] = d;
        confirmed[i] = d + Math.round(between(10, 14));
      }
    }
  }
  const near = (i: number, d: number) => {
    const seen = (j: number) => confirmed[j]! <= d && confirmed[j]! > d - 14;
    return {
      confirmedHere: seen(i) ? 1 : 0,
      walkedRustHere: 0,
      neighbours: districts[i]!.neighbours.filter((n) => seen(index.get(n)!)),
      upwind: [],
    };
  };
  // The forecast issued on day d: each district's levels for d..d+6.
  const high = (i: number, d: number, rule: 'spread' | 'weather') =>
    Array.from({ length: WINDOW }, (_, k) => call[i]![d + k]!).some((c) =>
      rule === 'weather' ? c === 'infects' : (riskOf(c, near(i, d)) as RiskLevel) === 'high',
    );
  const out: Record<string, string | number> = { crop };
  for (const rule of ['spread', 'weather'] as const) {
    const leads: number[] = [];
    let missed = 0;
    for (const [i, code] of codes.entries()) {
      const c = confirmed[i]!;
      if (SEEDS.includes(code) || !Number.isFinite(c) || c >= DAYS) continue;
      let first: number | null = null;
      for (let d = Math.max(0, c - LOOK_BACK); d < c; d++)
        if (high(i, d, rule)) {
          first = d;
          break;
        }
      if (first === null) missed += 1;
      else leads.push(c - first);
    }
    let highWeeks = 0;
    let empty = 0;
    for (let d = 0; d + WINDOW < DAYS; d += 7) {
      for (const i of codes.keys()) {
        if (!high(i, d, rule) || confirmed[i]! <= d) continue;
        highWeeks += 1;
        if (!(confirmed[i]! < d + 21)) empty += 1;
      }
    }
    leads.sort((a, b) => a - b);
    const n = leads.length + missed;
    out[`${rule}: confirmed`] = n;
    out[`${rule}: high before`] = n ? `${Math.round((100 * leads.length) / n)} %` : '-';
    out[`${rule}: median days ahead`] = leads.length ? leads[Math.floor(leads.length / 2)]! : '-';
    out[`${rule}: high weeks with none`] = highWeeks
      ? `${Math.round((100 * empty) / highWeeks)} % of ${highWeeks}`
      : '-';
  }
  return out;
}

const rows = forecastCrops.map(season);
atLeast(
  Number(rows[0]!['spread: confirmed']) + Number(rows[1]!['spread: confirmed']),
  1,
  'a confirmation after the seeds',
);
console.log(
  `Season replay: seed ${seed}, ${DAYS} days, ${codes.length} districts, spread ${SPREAD} a day on infecting weather`,
);
console.log('"spread": the rule (rust weather and rust here or next door); "weather": rust weather alone');
console.table(rows);
