import {
  type DistrictForecastReply,
  districtByCode,
  type FieldForecastReply,
  type ForecastCrop,
  type ForecastWeekReply,
  forecastCrops,
  isDistrictCode,
  type OpenRiskGeoJson,
  type RiskLevel,
  RUST_WEATHER_VERSION,
  shownCount,
  worstLevel,
} from '@kutu/contract';
import { BOUNDARY_ATTRIBUTION, BOUNDARY_LICENCE, boundaryNote, boundaryOf } from '@kutu/contract/boundaries';
import { districtPoints } from '@kutu/contract/district-points';
import { WeatherUnavailable } from '../../adapters/weather.ts';
import type { ModuleDeps } from '../../deps.ts';
import { forbidden, notFound } from '../../lib/errors.ts';
import { csvLine } from '../../lib/csv.ts';
import { weekStartOf } from '../../lib/iso-weeks.ts';
import type { FollowUpService } from '../followup/followup.service.ts';
import type { WalksService } from '../fields/walks.service.ts';
import type { OutbreakService } from '../outbreak/outbreak.service.ts';
import type { ApplicationsService } from '../vetting/applications.service.ts';
import { type Bulletin, bulletinRows } from './bulletin.ts';
import { createBulletinMail } from './bulletin-mail.ts';
import { createAdvisories, walkByOf } from './advisories.ts';
import { type ClinicFarmerSql, createForecastRepo, type RiskRow } from './forecast.repo.ts';
import { createHolds } from './hold.ts';
import { createHoldRepo } from './hold.repo.ts';
import { createScores } from './score-service.ts';
import { createScoreRepo } from './score.repo.ts';
import { byDistrict, placesOf } from './points.ts';
import { forecastWeek, localDays, type RustPresent, WEATHER_MAX_AGE_HOURS } from './week.ts';

/** The job queue of a weather fetch and forecast run (at start and every WEATHER_EVERY_HOURS). */
export const FORECAST_QUEUE = 'forecast-run';
/** Rust confirmed or walked this many days back counts as present. */
export const PRESENT_DAYS = 14;

type Log = (msg: string, err?: unknown) => void;

/**
 * The week's rust forecast (docs/decisions/0100): the weather fetched at every district's points, each
 * district's risk per crop and day from it and from rust already near, stored per run, and advisories to the
 * districts that turn high, before any confirmation.
 */
export function createForecastService(
  deps: Pick<ModuleDeps, 'db' | 'clock' | 'weather' | 'delivery' | 'config' | 'weatherPoints'>,
  uses: {
    outbreak: Pick<OutbreakService, 'weeklyCounts'>;
    followUps: Pick<FollowUpService, 'bringForward'>;
    /** The walks' rust (rust near) and weekly median incidence (the bulletin); unset: no walk counts. */
    walks?: Pick<WalksService, 'weeklyIncidence' | 'rustSince'>;
    /** National officers (the vetting module's), who read the bulletin beside administrators; unset: none. */
    national?: Pick<ApplicationsService, 'isNationalOfficer' | 'nationalOfficers'>;
    /** Plant clinics' farmers who agreed to SMS (the clinic module's condition): told without an account. */
    clinicFarmerSql: ClinicFarmerSql;
  },
  log: Log = () => {},
) {
  const repo = createForecastRepo(deps.db, uses.clinicFarmerSql);
  const advise = createAdvisories(deps, repo, uses.followUps);
  // A run prepares; the advisories go at the day's send hour, less the districts held (docs/decisions/0128).
  const holds = createHolds(deps, createHoldRepo(deps.db), advise, uses.national, log);
  // Every run kept FORECAST_KEEP_DAYS and scored against what was seen after it (docs/decisions/0129).
  const scores = createScores(deps, createScoreRepo(deps.db), uses);

  /**
   * Fetches the week's weather at every district's points (docs/decisions/0134), each distinct place asked
   * once (a district newer than the boundary file shares its parent's); on failure keeps what was cached and
   * says why. A place whose reply failed the adapter's checks keeps its last good hours (until
   * WEATHER_MAX_AGE_HOURS); true when any place's weather was replaced.
   */
  async function fetchWeather(): Promise<boolean> {
    const { places, rows } = placesOf(deps.weatherPoints ?? districtPoints);
    try {
      const fetched = await deps.weather.forecast(places);
      const { hours, refused } = fetched;
      if (refused.length) {
        const reasons = [...new Set(refused.map((r) => r.reason))].slice(0, 3).join('; ');
        log(`weather refused for ${refused.length} of ${places.length} places, the last good kept: ${reasons}`);
      }
      await repo.saveWeather(rows(fetched), deps.clock.now());
      return hours.size > 0;
    } catch (err) {
      if (!(err instanceof WeatherUnavailable)) throw err;
      log(`weather unknown: ${err.message}`);
      return false;
    }
  }

  /**
   * Rust of the last PRESENT_DAYS: confirmed farmer-weeks (the outbreak counts) and farmers whose walks found
   * it. A walk an expert or officer confirmed counts as confirmed; the others only as many farmers as walked
   * (riskOf counts them at SMALL_COUNT_MIN or more: one farmer's walks alone steer nothing, decision 0127).
   */
  async function present(now: Date): Promise<RustPresent> {
    const since = new Date(now.getTime() - PRESENT_DAYS * 86_400_000);
    const out: RustPresent = new Map();
    const at = (k: string) =>
      out.get(k) ?? out.set(k, { confirmed: 0, walked: 0, shown: false, walkedMedian: null }).get(k)!;
    // Weekly counts: the weeks that overlap the last PRESENT_DAYS; the map shows a week's count at the minimum.
    for (const c of await uses.outbreak.weeklyCounts({ from: weekStartOf(since) })) {
      const p = at(`${c.district}|${c.crop}`);
      p.confirmed += c.confirmed;
      p.shown ||= shownCount(c.confirmed) > 0;
    }
    for (const w of (await uses.walks?.rustSince(since)) ?? []) {
      const p = at(`${w.district}|${w.crop}`);
      p.walked = w.rustFarmers;
      p.confirmed += w.confirmedRustFarmers;
      p.shown ||= shownCount(w.rustFarmers) > 0;
      // The walks' median, as the open feed publishes it: only over SMALL_COUNT_MIN farmers or more.
      if (shownCount(w.farmers) > 0) p.walkedMedian = w.median;
    }
    return out;
  }

  /**
   * One run: the risks from the cached weather and rust near, stored; then the send that is due (hold.ts): a
   * run's new advisories wait for the next send hour. Returns the run's id.
   */
  async function run(): Promise<number> {
    const now = deps.clock.now();
    // Weather past its maximum age is not believed: its days read unknown, and nothing high is told from it.
    const cached = (await repo.weather()).filter(
      (w) => now.getTime() - w.fetchedAt.getTime() <= WEATHER_MAX_AGE_HOURS * 3_600_000,
    );
    const oldest = cached.reduce<Date | null>((a, w) => (!a || w.fetchedAt < a ? w.fetchedAt : a), null);
    const risks = forecastWeek(byDistrict(cached), await present(now), now);
    const runId = await repo.saveRun(
      { ranAt: now, rulesVersion: RUST_WEATHER_VERSION, weatherFetchedAt: oldest },
      risks,
    );
    await holds.sendDue();
    return runId;
  }

  function weatherState(run: { weatherFetchedAt: Date | null } | null, levels: RiskLevel[]) {
    const fetched = run?.weatherFetchedAt ?? null;
    const known = fetched !== null && levels.some((l) => l !== 'unknown');
    return {
      state: known ? ('known' as const) : ('unknown' as const),
      fetched_at: known && fetched ? fetched.toISOString() : null,
      age_hours: known && fetched ? Math.round((deps.clock.now().getTime() - fetched.getTime()) / 360_000) / 10 : null,
    };
  }

  /** The latest run's rows for a crop, only the days from today on (a run older than today shows fewer). */
  async function latest(crop: ForecastCrop, district?: string) {
    const run = await repo.latestRun();
    const today = localDays(deps.clock.now(), 1)[0];
    const rows: RiskRow[] = run ? (await repo.risks(run.id, crop, district)).filter((r) => r.day >= today) : [];
    return { run, rows };
  }

  /** The national bulletin's rows (bulletin.ts), as of now. */
  async function bulletin(): Promise<Bulletin> {
    const now = deps.clock.now();
    const since = weekStartOf(new Date(now.getTime() - (PRESENT_DAYS - 1) * 86_400_000));
    const [run, risks, counts, walks] = await Promise.all([
      repo.latestRun(),
      Promise.all(forecastCrops.map(async (c) => [c, (await latest(c)).rows] as const)),
      uses.outbreak.weeklyCounts({ from: since }),
      uses.walks?.weeklyIncidence(weekStartOf(new Date(now.getTime() - 7 * 86_400_000))),
    ]);
    // The small-count rule, as on the map and the open feed (decision 0127): a week's confirmed count adds
    // only at SMALL_COUNT_MIN or more; a week's walks, with their median, only when SMALL_COUNT_MIN farmers or
    // more walked them (farmers, never fields), else they read as nothing walked.
    const confirmed = new Map<string, number>();
    for (const c of counts) {
      const k = `${c.district}|${c.crop}`;
      confirmed.set(k, (confirmed.get(k) ?? 0) + shownCount(Number(c.confirmed)));
    }
    // The latest week walked per district and crop (rows come oldest week first).
    const walked = new Map<string, { fields: number; median: number | null }>();
    for (const w of walks ?? []) {
      const shown = shownCount(Number(w.farmers)) > 0;
      walked.set(`${w.district}|${w.crop}`, {
        fields: shown ? w.fields : 0,
        median: shown && w.median !== null ? Number(w.median) : null,
      });
    }
    const held = await holds.heldNow();
    return {
      ...bulletinRows({ risks: new Map(risks), confirmed, walked, runAt: run?.ranAt ?? null, held }),
      score: await scores.forBulletin(),
    };
  }

  return {
    fetchWeather,
    run,
    /** The job: fetch (or fail to), then run on what is cached. */
    async refresh() {
      await fetchWeather();
      return run();
    },

    /** An administrator's run now: the run's id and whether it had weather. */
    async runNow() {
      const fetched = await fetchWeather();
      const runId = await run();
      const latestRun = await repo.latestRun();
      const known = fetched || latestRun?.weatherFetchedAt != null;
      return { run_id: runId, weather: known ? ('known' as const) : ('unknown' as const) };
    },

    async week(crop: ForecastCrop): Promise<ForecastWeekReply> {
      const { run, rows } = await latest(crop);
      const byDistrict = new Map<string, { day: string; level: RiskLevel }[]>();
      for (const r of rows) {
        const list = byDistrict.get(r.district) ?? byDistrict.set(r.district, []).get(r.district)!;
        list.push({ day: r.day, level: r.level });
      }
      return {
        crop,
        run_at: run?.ranAt.toISOString() ?? null,
        rules_version: RUST_WEATHER_VERSION,
        weather: weatherState(
          run,
          rows.map((r) => r.level),
        ),
        districts: [...byDistrict].map(([code, days]) => ({
          code,
          name: districtByCode(code)?.name ?? code,
          worst: worstLevel(days.map((d) => d.level)),
          days,
        })),
      };
    },

    async district(code: string, crop: ForecastCrop): Promise<DistrictForecastReply> {
      if (!isDistrictCode(code)) throw notFound();
      const { run, rows } = await latest(crop, code);
      const levels = rows.map((r) => r.level);
      return {
        code,
        name: districtByCode(code)?.name ?? code,
        crop,
        run_at: run?.ranAt.toISOString() ?? null,
        rules_version: RUST_WEATHER_VERSION,
        weather: weatherState(run, levels),
        worst: worstLevel(levels),
        days: rows.map((r) => ({ day: r.day, level: r.level, basis: r.basis })),
      };
    },

    /** A farmer's maize and bean fields with their district's week: the worst level and the day to walk by. */
    async myFields(userId: number): Promise<FieldForecastReply> {
      const out: FieldForecastReply['fields'] = [];
      // The day to walk by is the one this week's advisory named (and the reminder was set to).
      const now = deps.clock.now();
      const advised = new Map(
        (await repo.advisoriesSince(weekStartOf(now))).map((a) => [`${a.district}|${a.crop}`, a] as const),
      );
      for (const f of await repo.fieldsOf(userId)) {
        const crop = f.crop as ForecastCrop;
        const { run, rows } = await latest(crop, f.district as string);
        const levels = rows.map((r) => r.level);
        out.push({
          field_id: f.id,
          name: f.name,
          crop,
          district: f.district as string,
          worst: worstLevel(levels),
          walk_by: walkByOf(rows, advised.get(`${f.district}|${crop}`), now),
          weather: weatherState(run, levels),
        });
      }
      return { fields: out };
    },

    /** Risk per district, crop and day of the latest run, for the open feed (levels only, no counts). */
    async openCsv(): Promise<string> {
      let out = csvLine(['district', 'name', 'crop', 'day', 'level', 'rules_version', 'run_at']);
      for (const crop of ['maize', 'beans'] as const) {
        const { run, rows } = await latest(crop);
        for (const r of rows) {
          const name = districtByCode(r.district)?.name ?? '';
          out += csvLine([
            r.district,
            name,
            crop,
            r.day,
            r.level,
            RUST_WEATHER_VERSION,
            run?.ranAt.toISOString() ?? '',
          ]);
        }
      }
      return out;
    },

    /** The open feed's GeoJSON: every district and crop (or one crop) of the latest run, its boundary, days and worst level. */
    async openGeoJson(only?: ForecastCrop): Promise<OpenRiskGeoJson> {
      const crops = only ? [only] : forecastCrops;
      const latestByCrop = await Promise.all(crops.map(async (crop) => ({ crop, ...(await latest(crop)) })));
      const run = latestByCrop[0].run;
      const features = latestByCrop.flatMap(({ crop, rows }) => {
        const byDistrict = new Map<string, RiskRow[]>();
        for (const r of rows) byDistrict.set(r.district, [...(byDistrict.get(r.district) ?? []), r]);
        return [...byDistrict].map(([code, days]) => {
          const d = districtByCode(code);
          return {
            type: 'Feature' as const,
            id: `${code}:${crop}`,
            geometry: boundaryOf(code),
            properties: {
              code,
              name: d?.name ?? code,
              country: d?.country ?? ('UG' as const),
              crop,
              ...boundaryNote(code),
              worst: worstLevel(days.map((r) => r.level)),
              days: days.map((r) => ({ day: r.day, level: r.level })),
            },
          };
        });
      });
      return {
        type: 'FeatureCollection',
        generated_at: deps.clock.now().toISOString(),
        run_at: run?.ranAt.toISOString() ?? null,
        rules_version: RUST_WEATHER_VERSION,
        weather: weatherState(
          run,
          latestByCrop.flatMap((c) => c.rows.map((r) => r.level)),
        ),
        attribution: [...BOUNDARY_ATTRIBUTION],
        licence: `Levels: Kutu, CC BY 4.0. ${BOUNDARY_LICENCE}`,
        features,
      };
    },

    /** A district's advisories of the ISO week starting `weekStart` (its crop, first high day and when told), for an officer's week. */
    advisoriesOf: (code: string, weekStart: string) => repo.advisoriesOf(code, weekStart),

    /** A district's coming week per crop, as an officer's week lists it: the worst level and the high days. */
    async districtWeek(code: string) {
      const run = await repo.latestRun();
      if (!run) return undefined;
      return Promise.all(
        forecastCrops.map(async (crop) => {
          const { rows } = await latest(crop, code);
          return {
            crop,
            worst: worstLevel(rows.map((r) => r.level)),
            high_days: rows.filter((r) => r.level === 'high').map((r) => r.day),
          };
        }),
      );
    },

    /**
     * The national bulletin's rows for a reader (the routes write them as CSV or PDF): an administrator, or
     * an officer an administrator made national (docs/decisions/0122); any other officer gets 403.
     */
    async bulletinFor(reader: { userId: number; role: string }): Promise<Bulletin> {
      const national = reader.role === 'officer' && (await uses.national?.isNationalOfficer(reader.userId));
      if (reader.role !== 'admin' && !national) throw forbidden('errors.officer.notNational');
      return bulletin();
    },

    /** The Monday bulletin email to administrators and national officers (bulletin-mail.ts); the hourly sweep calls it. */
    sendBulletin: createBulletinMail(deps, {
      bulletin,
      readers: async () => {
        const admins = (await repo.administrators()).map((a) => ({ ...a, role: 'admin' as const }));
        const officers = ((await uses.national?.nationalOfficers()) ?? []).map((o) => ({
          ...o,
          role: 'officer' as const,
        }));
        return [...admins, ...officers];
      },
    }),

    advisoriesSince: (weekStart: string) => repo.advisoriesSince(weekStart),

    /** The send of the advisories due (the hourly sweep's; a run calls it too). */
    sendDue: holds.sendDue,
    /** Administrators and national officers: the week's advisories by district, and the holds (hold.ts). */
    pending: async (reader: { userId: number; role: string }) => holds.pending(reader, await repo.latestRun()),
    hold: holds.hold,
    liftHold: holds.lift,
    sendNow: holds.sendNow,
    /** Administrators and national officers: the latest score the weekly sweep stored (score-service.ts). */
    async scoreFor(reader: { userId: number; role: string }) {
      await holds.mayHold(reader);
      return scores.latest();
    },
    pruneRuns: scores.pruneRuns,
    storeScore: scores.storeWeek,
  };
}
export type ForecastService = ReturnType<typeof createForecastService>;
