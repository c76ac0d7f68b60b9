// Rust weather by crop: when a leaf is wet, how long a wet period must last at its mean temperature for the
// crop's rust to infect (the generic infection model of Magarey, Sutton & Thayer 2005), and a district's risk
// for a day from that and from rust already near (docs/decisions/0100, 0126, 0127). Without zod, so the phone
// can work it out with the same rules.
import { SMALL_COUNT_MIN } from './outbreak-paths.ts';

/** Bumped whenever a model's parameters, the wetness rule or a risk rule changes: every stored forecast says which it used. */
export const RUST_WEATHER_VERSION = '2026-11-29.2';

export const forecastCrops = ['maize', 'beans'] as const;
export type ForecastCrop = (typeof forecastCrops)[number];

export const riskLevels = ['low', 'moderate', 'high', 'unknown'] as const;
export type RiskLevel = (typeof riskLevels)[number];

/**
 * A rust's parameters in the generic infection model (Magarey, Sutton & Thayer 2005, Phytopathology 95:92-100):
 * the wetness an infection needs at the mean temperature T of the wet period is W(T) = Wmin / f(T), where
 * f(T) = ((Tmax − T)/(Tmax − Topt)) · ((T − Tmin)/(Topt − Tmin))^((Topt − Tmin)/(Tmax − Topt)), capped at
 * Wmax; outside Tmin..Tmax it never infects. A dry break shorter than D50 does not end a wet period.
 */
export type RustBand = {
  /** The rust, by its Latin name. */
  rust: string;
  /** Tmin and Tmax (°C, exclusive): outside them the rust does not infect. */
  minC: number;
  maxC: number;
  /** Topt (°C): where the least wetness suffices. */
  optC: number;
  /** Wmin: hours of wet leaf an infection needs at Topt. */
  infectionHours: number;
  /** Wmax: the most wetness the model ever asks (hours); W(T) above it is capped. */
  maxWetHours: number;
  /** D50: a dry break of fewer hours than this leaves the wet period whole (the hours on either side add up). */
  dryBreakHours: number;
  /** Where the figures come from, and which are our own choice. */
  sources: readonly { title: string; url: string }[];
};

/**
 * Each crop's rust in the model. Tmin/Topt/Tmax and Wmin/Wmax are taken from the ranges the extension
 * sources give (cited from the record, without internet to check them again); Topt is the middle of the
 * published optimum; Wmax and D50 are our choices, stated in docs/decisions/0126.
 */
export const RUST_BANDS: Record<ForecastCrop, RustBand> = {
  maize: {
    rust: 'Puccinia sorghi',
    minC: 12,
    maxC: 28,
    optC: 20,
    infectionHours: 6,
    maxWetHours: 16,
    dryBreakHours: 2,
    sources: [
      {
        title:
          'Magarey, Sutton & Thayer (2005): A simple generic infection model for foliar fungal plant pathogens, Phytopathology 95:92-100 (the model)',
        url: 'https://doi.org/10.1094/PHYTO-95-0092',
      },
      {
        title:
          'Bayer Crop Science (DEKALB agronomy): Identifying and managing common rust of corn (3-6 h of moisture, 60-77 °F, RH ≥ 95 %)',
        url: 'https://www.dekalbasgrowdeltapine.com/en-us/agronomy/identifying-and-managing-common-rust-of-corn.html',
      },
      {
        title: 'Greenbook field guide: Common rust (about six hours of moisture, cool temperatures, heavy dew)',
        url: 'https://www.greenbook.net/field-guide/diseases/common-rust',
      },
      {
        title:
          'APS Compendium of Corn Diseases, common rust (infects from about 12 °C, optimum 16-23 °C, about 6 h of dew; from memory)',
        url: 'https://doi.org/10.1094/9780890544945',
      },
    ],
  },
  beans: {
    rust: 'Uromyces appendiculatus',
    minC: 17,
    maxC: 27,
    optC: 21,
    infectionHours: 10,
    maxWetHours: 18,
    dryBreakHours: 2,
    sources: [
      {
        title:
          'Magarey, Sutton & Thayer (2005): A simple generic infection model for foliar fungal plant pathogens, Phytopathology 95:92-100 (the model)',
        url: 'https://doi.org/10.1094/PHYTO-95-0092',
      },
      {
        title:
          'Schwartz, Steadman & Harveson: Rust of dry beans, Colorado State University Extension fact sheet 2.936 (17-27 °C, 10-18 h above 95 % humidity)',
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

/**
 * The leaf counts as wet at relative humidity of this much or more (%): the threshold Sentelhas et al. (2008,
 * Agricultural and Forest Meteorology 148:392) found to estimate leaf wetness from humidity best on average
 * (the rust sources ask 95 % and more; 90 % errs toward warning).
 */
export const WET_HUMIDITY = 90;
/** ...or when the dew point is within this many °C of the air: about 90-91 % humidity at 10-25 °C. */
export const WET_DEW_GAP_C = 1.5;
/** ...or when this much rain (mm) or more falls in the hour. */
export const WET_RAIN_MM = 0.1;
/** A day whose best wet period reached this share of the wetness it needed, without infecting, is "nearly". */
export const NEARLY_SHARE = 0.5;
/** A day with fewer hours of usable weather (temperature and humidity or dew point) is unknown, never low. */
export const MIN_KNOWN_HOURS = 18;

/** One forecast hour at a place, as Open-Meteo gives it (null where the service has no value, or a value failed its check). */
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

/** Whether the hour has weather enough to judge the leaf: a temperature, and humidity or a dew point. */
export function knownHour(h: WeatherHour): boolean {
  return h.tempC !== null && (h.humidity !== null || h.dewPointC !== null);
}

/** Whether the leaf is wet in this hour: humid air, dew, or rain. */
export function leafWet(h: WeatherHour): boolean {
  if (h.humidity !== null && h.humidity >= WET_HUMIDITY) return true;
  if (h.tempC !== null && h.dewPointC !== null && h.tempC - h.dewPointC <= WET_DEW_GAP_C) return true;
  return h.rainMm !== null && h.rainMm >= WET_RAIN_MM;
}

/** f(T) of the model: 1 at Topt, 0 at and beyond Tmin and Tmax. */
export function temperatureResponse(tempC: number, crop: ForecastCrop): number {
  const b = RUST_BANDS[crop];
  if (tempC <= b.minC || tempC >= b.maxC) return 0;
  const shape = (b.optC - b.minC) / (b.maxC - b.optC);
  return ((b.maxC - tempC) / (b.maxC - b.optC)) * ((tempC - b.minC) / (b.optC - b.minC)) ** shape;
}

/** W(T): hours of wet leaf an infection needs at a wet period's mean temperature (Infinity: none at that temperature). */
export function wetnessNeeded(meanTempC: number, crop: ForecastCrop): number {
  const f = temperatureResponse(meanTempC, crop);
  if (f <= 0) return Number.POSITIVE_INFINITY;
  const b = RUST_BANDS[crop];
  return Math.min(b.infectionHours / f, b.maxWetHours);
}

export type RustDay = {
  /** Local date, `2026-11-28`. */
  day: string;
  /** Hours of the day with a wet leaf. */
  wetHours: number;
  /** The longest wet period (wet hours, short dry breaks bridged) reached this day; a night's period that began the evening before counts whole. */
  longestRun: number;
  /**
   * Infections completed this day: each time a wet period reaches W(T) at its mean temperature (the period
   * then starts again), so a day inside a wet spell that began days before infects too.
   */
  infectionRuns: number;
  /** The wetness the day's most advanced period needed (hours, rounded up), or null when none could infect. */
  neededHours: number | null;
  /** How far the day's most advanced wet period got toward infection (0..1). */
  progress: number;
  /** Where the wind blows from, on average over the day (degrees), or null without wind. */
  windFromDeg: number | null;
  /** Hours the service gave for the day (fewer than 24 at the forecast's edges). */
  hours: number;
  /** Of those, the hours with usable weather (knownHour): under MIN_KNOWN_HOURS the day is unknown. */
  knownHours: number;
};

/**
 * A crop's rust weather per local day, from hours in time order: wet periods (a dry or unknown break shorter
 * than D50 bridged, its hours not counted), each infecting when its wet hours reach W(T) at their mean
 * temperature.
 */
export function rustDays(hours: readonly WeatherHour[], crop: ForecastCrop): RustDay[] {
  const band = RUST_BANDS[crop];
  const days = new Map<string, RustDay & { u: number; v: number }>();
  let wet = 0;
  let sumT = 0;
  let dry = 0;
  for (const h of hours) {
    const key = h.time.slice(0, 10);
    let d = days.get(key);
    if (!d) {
      d = {
        day: key,
        wetHours: 0,
        longestRun: 0,
        infectionRuns: 0,
        neededHours: null,
        progress: 0,
        windFromDeg: null,
        hours: 0,
        knownHours: 0,
        u: 0,
        v: 0,
      };
      days.set(key, d);
    }
    d.hours += 1;
    if (h.windFromDeg !== null) {
      const speed = h.windKmh ?? 1;
      d.u += speed * Math.sin((h.windFromDeg * Math.PI) / 180);
      d.v += speed * Math.cos((h.windFromDeg * Math.PI) / 180);
    }
    const known = knownHour(h);
    if (known) d.knownHours += 1;
    if (!known || !leafWet(h) || h.tempC === null) {
      dry += 1;
      if (dry >= band.dryBreakHours) {
        wet = 0;
        sumT = 0;
      }
      continue;
    }
    dry = 0;
    wet += 1;
    sumT += h.tempC;
    d.wetHours += 1;
    d.longestRun = Math.max(d.longestRun, wet);
    const need = wetnessNeeded(sumT / wet, crop);
    const progress = Math.min(1, wet / need);
    if (progress >= d.progress && Number.isFinite(need)) {
      d.progress = progress;
      d.neededHours = Math.ceil(need);
    }
    if (wet >= need) {
      d.infectionRuns += 1;
      wet = 0;
      sumT = 0;
    }
  }
  return [...days.values()].map(({ u, v, ...d }) => ({
    ...d,
    progress: Math.round(d.progress * 100) / 100,
    windFromDeg: u === 0 && v === 0 ? null : Math.round(((Math.atan2(u, v) * 180) / Math.PI + 360) % 360),
  }));
}

/** How the weather of a day stands for infection. */
export type WeatherCall = 'infects' | 'nearly' | 'dry';

/** The day's call, or null when too few of its hours had usable weather (the day is then unknown, never low). */
export function weatherCall(d: RustDay, _crop?: ForecastCrop): WeatherCall | null {
  if (d.knownHours < MIN_KNOWN_HOURS) return null;
  if (d.infectionRuns > 0) return 'infects';
  return d.progress >= NEARLY_SHARE ? 'nearly' : 'dry';
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
