// Rust weather by crop: the hours in which a leaf is wet inside the band of temperatures in which the crop's
// rust infects, the runs of such hours long enough to infect, and a district's risk for a day from them and
// from rust already near (docs/decisions/0100). Without zod, so the phone can work it out with the same rules.
import { SMALL_COUNT_MIN } from './outbreak-paths.ts';

/** Bumped whenever a band, a wetness rule or a risk rule changes: every stored forecast says which it used. */
export const RUST_WEATHER_VERSION = '2026-12-02.1';

export const forecastCrops = ['maize', 'beans'] as const;
export type ForecastCrop = (typeof forecastCrops)[number];

export const riskLevels = ['low', 'moderate', 'high', 'unknown'] as const;
export type RiskLevel = (typeof riskLevels)[number];

export type RustBand = {
  /** The rust, by its Latin name. */
  rust: string;
  /** Air temperatures (°C, inclusive) in which its spores infect a wet leaf. */
  minC: number;
  maxC: number;
  /** Hours in a row of wet leaf inside the band that an infection needs. */
  infectionHours: number;
  sources: readonly { title: string; url: string }[];
};

/**
 * Each crop's rust, its band and the wet hours it needs. Maize common rust infects at 16-25 °C with about
 * 6 hours of free water on the leaf; bean rust at 17-27 °C with 10 hours or more of leaf wetness.
 */
export const RUST_BANDS: Record<ForecastCrop, RustBand> = {
  maize: {
    rust: 'Puccinia sorghi',
    minC: 16,
    maxC: 25,
    infectionHours: 6,
    sources: [
      {
        title:
          'Bayer Crop Science (DEKALB agronomy): Identifying and managing common rust of corn (3-6 h of moisture, 60-77 °F, RH ≥ 95 %)',
        url: 'https://www.dekalbasgrowdeltapine.com/en-us/agronomy/identifying-and-managing-common-rust-of-corn.html',
      },
      {
        title: 'Greenbook field guide: Common rust (about six hours of moisture, cool temperatures, heavy dew)',
        url: 'https://www.greenbook.net/field-guide/diseases/common-rust',
      },
    ],
  },
  beans: {
    rust: 'Uromyces appendiculatus',
    minC: 17,
    maxC: 27,
    infectionHours: 10,
    sources: [
      {
        title: 'Schwartz, Steadman & Harveson: Rust of dry beans, Colorado State University Extension fact sheet 2.936',
        url: 'https://extension.colostate.edu/topic-areas/agriculture/rust-of-dry-beans-2-936',
      },
      {
        title: 'Harveson, Schwartz & Steadman: Rust of dry bean, University of Nebraska-Lincoln Extension G1766',
        url: 'https://extensionpubs.unl.edu/publication/g1766/2013/html/view',
      },
      {
        title: 'East-West Seed Plant Doctor: Rust of legumes (free water on the leaf for more than 10 hours)',
        url: 'https://plantdoctor.eastwestseed.com/diagnostic-key/rust?plant=Legume&part=Leaf',
      },
    ],
  },
};

/** The leaf counts as wet at relative humidity of this much or more (%). */
export const WET_HUMIDITY = 90;
/** ...or when the dew point is within this many °C of the air (dew forms). */
export const WET_DEW_GAP_C = 2;
/** ...or when this much rain (mm) or more falls in the hour. */
export const WET_RAIN_MM = 0.1;
/** A day whose wet hours in the band reach half the infection run, without a full run, is "nearly". */
export const NEARLY_SHARE = 0.5;

/** One forecast hour at a place, as Open-Meteo gives it (null where the service has no value). */
export type WeatherHour = {
  /** Local time, `2026-11-28T03:00`. */
  time: string;
  tempC: number | null;
  humidity: number | null;
  dewPointC: number | null;
  rainMm: number | null;
  windKmh: number | null;
  /** Where the wind blows from, degrees from north. */
  windFromDeg: number | null;
};

/** Whether the leaf is wet in this hour: humid air, dew, or rain. */
export function leafWet(h: WeatherHour): boolean {
  if (h.humidity !== null && h.humidity >= WET_HUMIDITY) return true;
  if (h.tempC !== null && h.dewPointC !== null && h.tempC - h.dewPointC <= WET_DEW_GAP_C) return true;
  return h.rainMm !== null && h.rainMm >= WET_RAIN_MM;
}

/** Whether this hour can infect: a wet leaf inside the crop's band. */
export function infectingHour(h: WeatherHour, crop: ForecastCrop): boolean {
  const b = RUST_BANDS[crop];
  return h.tempC !== null && h.tempC >= b.minC && h.tempC <= b.maxC && leafWet(h);
}

export type RustDay = {
  /** Local date, `2026-11-28`. */
  day: string;
  /** Hours of the day with a wet leaf in the band. */
  wetHours: number;
  /** The longest run of such hours ending this day (a night's run that began the evening before counts whole). */
  longestRun: number;
  /**
   * Infection periods completed this day: each `infectionHours` of a run in a row, so a day inside a wet
   * spell that began days before infects too (spores landing that day have their hours).
   */
  infectionRuns: number;
  /** Where the wind blows from, on average over the day (degrees), or null without wind. */
  windFromDeg: number | null;
  /** Hours the service gave for the day (fewer than 24 at the forecast's edges). */
  hours: number;
};

/** A crop's rust weather per local day, from hours in time order. */
export function rustDays(hours: readonly WeatherHour[], crop: ForecastCrop): RustDay[] {
  const need = RUST_BANDS[crop].infectionHours;
  const days = new Map<string, RustDay & { u: number; v: number }>();
  let run = 0;
  for (const h of hours) {
    const key = h.time.slice(0, 10);
    let d = days.get(key);
    if (!d) {
      d = { day: key, wetHours: 0, longestRun: 0, infectionRuns: 0, windFromDeg: null, hours: 0, u: 0, v: 0 };
      days.set(key, d);
    }
    d.hours += 1;
    if (h.windFromDeg !== null) {
      const speed = h.windKmh ?? 1;
      d.u += speed * Math.sin((h.windFromDeg * Math.PI) / 180);
      d.v += speed * Math.cos((h.windFromDeg * Math.PI) / 180);
    }
    if (infectingHour(h, crop)) {
      run += 1;
      d.wetHours += 1;
      d.longestRun = Math.max(d.longestRun, run);
      if (run % need === 0) d.infectionRuns += 1;
    } else {
      run = 0;
    }
  }
  return [...days.values()].map(({ u, v, ...d }) => ({
    ...d,
    windFromDeg: u === 0 && v === 0 ? null : Math.round(((Math.atan2(u, v) * 180) / Math.PI + 360) % 360),
  }));
}

/** How the weather of a day stands for infection. */
export type WeatherCall = 'infects' | 'nearly' | 'dry';

export function weatherCall(d: RustDay, crop: ForecastCrop): WeatherCall {
  const need = RUST_BANDS[crop].infectionHours;
  if (d.infectionRuns > 0) return 'infects';
  return d.wetHours >= Math.ceil(need * NEARLY_SHARE) ? 'nearly' : 'dry';
}

/**
 * Rust already there, as much as no one person can make of it (docs/decisions/0127): what an expert
 * confirmed, or what SMALL_COUNT_MIN farmers or more found on their walks (farmers, never fields), in the
 * district or in a neighbour.
 */
export type RustNear = {
  /** Confirmed farmer-weeks in the district in the last 14 days, and farmers whose walk an expert or officer confirmed. */
  confirmedHere: number;
  /** Farmers whose walks found rust in the district in the last 14 days: counts at SMALL_COUNT_MIN or more only. */
  walkedRustHere: number;
  /** Neighbours with rust that counts (confirmed, or walked by SMALL_COUNT_MIN farmers) in the last 14 days (codes). */
  neighbours: readonly string[];
  /** Of those, the ones the day's wind blows from (codes). */
  upwind: readonly string[];
};

/** Whether rust in a place counts toward a level: confirmed by an expert, or walked by SMALL_COUNT_MIN farmers or more. */
export const rustCounts = (confirmed: number, walkedFarmers: number) =>
  confirmed > 0 || walkedFarmers >= SMALL_COUNT_MIN;

/**
 * A day's risk: rust weather with rust here or next door is high; rust weather alone, or nearly rust
 * weather with rust near, is moderate; anything else low. No weather for the day is `unknown`, never low.
 * One farmer's walks alone are never rust near: they count once an expert confirms them or SMALL_COUNT_MIN
 * farmers say the same.
 */
export function riskOf(call: WeatherCall | null, near: RustNear): RiskLevel {
  if (call === null) return 'unknown';
  const rustNear = rustCounts(near.confirmedHere, near.walkedRustHere) || near.neighbours.length > 0;
  if (call === 'infects') return rustNear ? 'high' : 'moderate';
  if (call === 'nearly' && rustNear) return 'moderate';
  return 'low';
}

/** Neighbours in the quarter the wind blows from: within 45° of its direction, seen from the district's centre. */
export function upwindOf(
  centre: readonly [number, number],
  windFromDeg: number | null,
  neighbours: readonly { code: string; centre: readonly [number, number] }[],
): string[] {
  if (windFromDeg === null) return [];
  return neighbours
    .filter((n) => {
      const dLat = n.centre[0] - centre[0];
      const dLng = (n.centre[1] - centre[1]) * Math.cos((centre[0] * Math.PI) / 180);
      const bearing = ((Math.atan2(dLng, dLat) * 180) / Math.PI + 360) % 360;
      const diff = Math.abs(((bearing - windFromDeg + 540) % 360) - 180);
      return diff <= 45;
    })
    .map((n) => n.code);
}

const levelOrder: Record<RiskLevel, number> = { unknown: -1, low: 0, moderate: 1, high: 2 };

/** The week's worst level (unknown only when every day is). */
export function worstLevel(levels: readonly RiskLevel[]): RiskLevel {
  return levels.reduce<RiskLevel>((a, b) => (levelOrder[b] > levelOrder[a] ? b : a), 'unknown');
}
