import { type SQL, sql } from 'drizzle-orm';
import { DISTRICT_SETTLE_DAYS, SMALL_COUNT_MIN } from '@kutu/contract';
import type { Db, Tx } from '../../db/client.ts';
import { farmerFacts as fp } from '../auth/account.service.ts';
import { approvedSql } from '../vetting/applications.service.ts';
import { caseStateSql, settledDistrictSql } from './case-sql.ts';

type Runner = Db | Tx;
type SettingsInput = { district?: string; smsAlerts?: boolean; voiceWarnings?: boolean };
/** A person's alert settings (the outbreak settings' reply). */
type Settings = { district: string | null; smsAlerts: boolean; voiceWarnings: boolean; role: 'farmer' | 'expert' };
const rowsOf = async <T>(runner: Runner, query: SQL): Promise<T[]> =>
  ((await runner.execute(query)) as unknown as { rows: T[] }).rows;

/** Any constant: with the district and crop, the advisory lock that serialises their count changes. */
const COUNTS_LOCK = 36_031;

export type CaseState = 'confirmed' | 'reported' | 'none';

/** An analysis as counting sees it (docs/decisions/0031). */
export interface CaseSource {
  analysisId: number;
  userId: number;
  crop: string;
  weekStart: string;
  demo: boolean;
  /** The district the farmer had settled in when the photo was taken (`settledDistrictSql`; null: none chosen). */
  userDistrict: string | null;
  state: CaseState;
  unreviewed: boolean;
}

export interface CaseRow {
  district: string;
  crop: string;
  weekStart: string;
  state: CaseState;
  unreviewed: boolean;
  demo: boolean;
}

export interface FarmerWeek {
  state: CaseState;
  unreviewed: boolean;
}

/** What `caseSource*` read: the analysis, its farmer's settled district, its state and its case so far. */
const caseColumns = sql`a.id as "analysisId", a.user_id as "userId", coalesce(a.crop, 'other') as crop,
  (date_trunc('week', a.created_at at time zone 'UTC'))::date::text as "weekStart",
  a.demo, ${settledDistrictSql} as "userDistrict", ${caseStateSql} as state,
  (r.verdict is null) as unreviewed,
  case when c.analysis_id is null then null else json_build_object('district', c.district, 'crop', c.crop,
    'weekStart', c.week_start::text, 'state', c.state, 'unreviewed', c.unreviewed, 'demo', c.demo) end as known`;
const caseJoins = (src: OutbreakSources) => sql`from ${src.analyses} a join users u on u.id = a.user_id
  left join ${src.verdicts} r on r.analysis_id = a.id
  left join outbreak_cases c on c.analysis_id = a.id`;
const parseKnown = <T extends { known: CaseRow | null }>(row: T | undefined): T | undefined => {
  if (row && typeof row.known === 'string') row.known = JSON.parse(row.known);
  return row;
};

/** A farmer's other cases in one crop and week: any confirmed, any reported, any reported and unreviewed. */
export interface FarmerWeekOthers {
  confirmed: boolean;
  reported: boolean;
  unreviewed: boolean;
}

/**
 * What counting reads of analyses, verdicts and plant-clinic farmers, read only: the analysis module's
 * `analysisCaseSql` (id, user_id, crop, created_at, demo, outcome, rust_class, unsure), the review module's
 * `verdictCaseSql` (analysis_id, verdict), each a parenthesised subquery for raw SQL's `from`, and the clinic's
 * `clinicSmsFarmerSql`. Those modules use this one, so services.ts hands them in.
 */
export interface OutbreakSources {
  analyses: SQL;
  verdicts: SQL;
  clinicFarmerSql: (userId: SQL) => SQL;
}

export function createOutbreakRepo(db: Db, src: OutbreakSources) {
  const joins = caseJoins(src);
  return {
    db,

    /**
     * The analysis as counting sees it and its case as counted so far (if any), in one query; and when it
     * is or may become a case, the lock of its district and crop's counts (`lockCounts`), taken in the
     * same round trip. The row was read before the lock was granted: read it again under the lock
     * (`caseUnderLock`) before deciding.
     */
    async caseSourceLocking(tx: Tx, analysisId: number): Promise<(CaseSource & { known: CaseRow | null }) | undefined> {
      const district = sql`coalesce(c.district, ${settledDistrictSql})`;
      const [row] = await rowsOf<CaseSource & { known: CaseRow | null }>(
        tx,
        sql`select ${caseColumns},
              case when ${district} is not null and (c.analysis_id is not null or ${caseStateSql} <> 'none')
                then pg_advisory_xact_lock(${COUNTS_LOCK}, hashtext(${district} || '|' || coalesce(c.crop, a.crop, 'other')))
              end as locked
            ${joins} where a.id = ${analysisId}`,
      );
      return parseKnown(row);
    },

    /**
     * The analysis and its case (as `caseSourceLocking`) read again under the counts' lock, with the
     * farmer's other cases of the case's crop and week (all but this analysis): any confirmed, reported,
     * unreviewed. One query.
     */
    async caseUnderLock(
      tx: Tx,
      analysisId: number,
    ): Promise<(CaseSource & { known: CaseRow | null; others: FarmerWeekOthers }) | undefined> {
      const [row] = await rowsOf<CaseSource & { known: CaseRow | null; others: FarmerWeekOthers }>(
        tx,
        sql`select ${caseColumns}, json_build_object('confirmed', coalesce(o.confirmed, false),
              'reported', coalesce(o.reported, false), 'unreviewed', coalesce(o.unreviewed, false)) as others
            ${joins}
            left join lateral (
              select bool_or(oc.state = 'confirmed') as confirmed, bool_or(oc.state = 'reported') as reported,
                bool_or(oc.state = 'reported' and oc.unreviewed) as unreviewed
              from outbreak_cases oc
              where oc.user_id = a.user_id and oc.crop = coalesce(c.crop, a.crop, 'other')
                and oc.week_start = coalesce(c.week_start, (date_trunc('week', a.created_at at time zone 'UTC'))::date)
                and oc.analysis_id <> a.id) o on true
            where a.id = ${analysisId}`,
      );
      if (row && typeof row.others === 'string') row.others = JSON.parse(row.others);
      return parseKnown(row);
    },

    lockCounts: (tx: Tx, district: string, crop: string) =>
      tx.execute(sql`select pg_advisory_xact_lock(${COUNTS_LOCK}, hashtext(${`${district}|${crop}`}))`),

    /** The case, its farmer-week and the counts' difference, written in one statement. */
    save: (
      tx: Tx,
      analysisId: number,
      userId: number,
      c: CaseRow,
      week: FarmerWeek,
      d: { confirmed: number; reported: number; unreviewed: number },
      now: Date,
    ) =>
      tx.execute(sql`with case_row as (
          insert into outbreak_cases (analysis_id, user_id, district, crop, week_start, state, unreviewed, demo)
          values (${analysisId}, ${userId}, ${c.district}, ${c.crop}, ${c.weekStart}, ${c.state}, ${c.unreviewed}, ${c.demo})
          on conflict (analysis_id) do update set state = excluded.state, unreviewed = excluded.unreviewed
          returning 1),
        week_row as (
          insert into outbreak_farmer_weeks (user_id, crop, week_start, district, state, unreviewed, demo)
          values (${userId}, ${c.crop}, ${c.weekStart}, ${c.district}, ${week.state}, ${week.unreviewed}, ${c.demo})
          on conflict (user_id, crop, week_start) do update set state = excluded.state, unreviewed = excluded.unreviewed
          returning 1)
        insert into outbreak_counts (district, crop, week_start, demo, confirmed, reported, unreviewed, updated_at)
        select ${c.district}, ${c.crop}, ${c.weekStart}, ${c.demo}, ${d.confirmed}, ${d.reported}, ${d.unreviewed}, ${now}
        where ${d.confirmed} <> 0 or ${d.reported} <> 0 or ${d.unreviewed} <> 0
        on conflict (crop, week_start, district, demo) do update set
          confirmed = outbreak_counts.confirmed + excluded.confirmed,
          reported = outbreak_counts.reported + excluded.reported,
          unreviewed = outbreak_counts.unreviewed + excluded.unreviewed,
          updated_at = excluded.updated_at`),

    /**
     * For the alert rule, in one query: confirmed real (not demo) farmer-weeks per district since
     * `from` for `districts`, and the open alerts of `targets`.
     */
    async ruleInputs(runner: Runner, crop: string, from: string, districts: string[], targets: string[]) {
      const list = (codes: string[]) =>
        sql.join(
          codes.map((d) => sql`${d}`),
          sql`, `,
        );
      // Shown cells only (published.ts `shown`): an alert names its source district, so it may rest only on
      // what the map shows there, never on weeks of 1 or 2 that the privacy rule hides.
      const rows = await rowsOf<{ kind: 'count' | 'alert'; district: string; n: number }>(
        runner,
        sql`select 'count' as kind, district,
              sum(case when confirmed >= ${SMALL_COUNT_MIN} then confirmed else 0 end)::int as n from outbreak_counts
            where crop = ${crop} and week_start >= ${from} and not demo and district in (${list(districts)})
            group by district
            union all
            select 'alert', district, id from outbreak_alerts
            where crop = ${crop} and ended_at is null and district in (${list(targets)})`,
      );
      return {
        counts: new Map(rows.filter((r) => r.kind === 'count').map((r) => [r.district, Number(r.n)])),
        open: new Map(rows.filter((r) => r.kind === 'alert').map((r) => [r.district, Number(r.n)])),
      };
    },

    /** Raises an alert unless one is open (the partial unique index decides between racing confirmations). */
    async raiseAlert(tx: Tx, district: string, crop: string, source: string, now: Date) {
      const [row] = await rowsOf<{ id: number }>(
        tx,
        sql`insert into outbreak_alerts (district, crop, source_district, raised_at) values (${district}, ${crop}, ${source}, ${now})
            on conflict (district, crop) where ended_at is null do nothing returning id`,
      );
      return row?.id ?? null;
    },

    /** The district and crop of every open alert. */
    openAlerts: () =>
      rowsOf<{ district: string; crop: string }>(
        db,
        sql`select district, crop from outbreak_alerts where ended_at is null order by id`,
      ),

    endAlert: (tx: Tx, id: number, now: Date) =>
      tx.execute(sql`update outbreak_alerts set ended_at = ${now} where id = ${id} and ended_at is null`),

    /** The alert and its fan-out's progress, locked until the transaction ends (one fan-out step at a time). */
    async lockAlert(tx: Runner, id: number) {
      const [row] = await rowsOf<{
        id: number;
        district: string;
        crop: string;
        sourceDistrict: string;
        raisedAt: Date;
        deliveredAt: Date | null;
        toldThrough: number;
      }>(
        tx,
        sql`select id, district, crop, source_district as "sourceDistrict", raised_at as "raisedAt",
              delivered_at as "deliveredAt", told_through as "toldThrough" from outbreak_alerts where id = ${id} for update`,
      );
      return row;
    },

    /** Records the fan-out's progress: recipients up to `through` told; `deliveredAt` once all are. */
    async told(tx: Runner, id: number, through: number, deliveredAt: Date | null) {
      await tx.execute(
        sql`update outbreak_alerts set told_through = ${through}, delivered_at = ${deliveredAt} where id = ${id}`,
      );
    },

    /** Alerts whose fan-out has not finished (a worker died during it, or it never ran). */
    unfinishedAlerts: () =>
      rowsOf<{ id: number }>(db, sql`select id from outbreak_alerts where delivered_at is null and ended_at is null`),

    /**
     * Who an alert tells, in id order after `after`, `limit` at a time: farmers of the district who grow
     * the crop (said on a photo, or in their profile's crops), and the district's approved experts (never
     * one whose application waits or was refused, docs/decisions/0027). Active accounts, and the farmers a
     * plant clinic signed up who agreed to SMS from Kutu (not active until they prove the number, 0053).
     * The query, selecting `id` and `variant` (their role), for the outbox to write from (`tellEach`).
     */
    recipients: (district: string, crop: string, after: number, limit: number): SQL =>
      // The profile's `user_id > after` says again what u.id > after implies, so the profiles are read from there on,
      // not from the first one at every step (a step near the end of 100,000 read them all).
      sql`select u.id, u.role as variant from users u
            left join ${fp} on ${fp.userId} = u.id and ${fp.userId} > ${after}
            where u.district = ${district} and u.id > ${after} and (u.activated_at is not null
              or (u.role = 'farmer' and ${src.clinicFarmerSql(sql`u.id`)})) and (
              (u.role = 'expert' and ${approvedSql('expert', sql`u.id`)})
              or (u.role = 'farmer' and (
                exists (select 1 from ${src.analyses} a where a.user_id = u.id and coalesce(a.crop, 'other') = ${crop})
                or exists (select 1 from unnest(${fp.cropTypes}) c where lower(c) = ${crop}))))
            order by u.id limit ${limit}`,

    /**
     * Analyses whose counting lags behind their state, as a crash between a feature's commit and its
     * `record()` leaves them (docs/decisions/0031): counted cases of weeks since `since` whose state or
     * review changed, and analyses made since `newSince` by a farmer with a district that are a case but
     * were never counted.
     */
    unsettled: (since: string, newSince: Date) =>
      rowsOf<{ id: number }>(
        db,
        sql`select c.analysis_id as id from outbreak_cases c join ${src.analyses} a on a.id = c.analysis_id
              left join ${src.verdicts} r on r.analysis_id = a.id
            where c.week_start >= ${since} and (c.state <> ${caseStateSql}
              or c.unreviewed <> (${caseStateSql} = 'reported' and r.verdict is null))
            union
            select a.id from ${src.analyses} a join users u on u.id = a.user_id
              left join ${src.verdicts} r on r.analysis_id = a.id
              left join outbreak_cases c on c.analysis_id = a.id
            where a.created_at >= ${newSince} and c.analysis_id is null and ${settledDistrictSql} is not null
              and ${caseStateSql} <> 'none'`,
      ),

    /**
     * Weekly counts of one crop (or all) since `from` (and up to `to`), per district (or one): real and
     * try-out (demo) counts in rows of their own, never summed, so each is published under the privacy
     * rule on its own (published.ts).
     */
    weekly: (q: { crop?: string; from: string; to?: string; district?: string; realOnly?: boolean }) =>
      rowsOf<{
        district: string;
        crop: string;
        weekStart: string;
        confirmed: number;
        reported: number;
        unreviewed: number;
        demo: boolean;
        changed: Date | string;
      }>(
        db,
        sql`select district, crop, week_start::text as "weekStart", sum(confirmed)::int as confirmed,
              sum(reported)::int as reported, sum(unreviewed)::int as unreviewed, demo, max(updated_at) as changed
            from outbreak_counts where week_start >= ${q.from}
            ${q.to ? sql`and week_start <= ${q.to}` : sql``}
            ${q.crop ? sql`and crop = ${q.crop}` : sql``}
            ${q.district ? sql`and district = ${q.district}` : sql``}
            ${q.realOnly ? sql`and not demo` : sql``}
            group by district, crop, week_start, demo
            having sum(confirmed) > 0 or sum(reported) > 0
            order by week_start, district, crop, demo`,
      ),

    openAlertDistricts: async (crop: string) =>
      new Set(
        (
          await rowsOf<{ district: string }>(
            db,
            sql`select district from outbreak_alerts where crop = ${crop} and ended_at is null`,
          )
        ).map((r) => r.district),
      ),

    async settings(userId: number) {
      const [row] = await rowsOf<Settings>(
        db,
        sql`select district, sms_alerts as "smsAlerts", voice_warnings as "voiceWarnings", role from users
            where id = ${userId}`,
      );
      return row;
    },

    /** The user's analyses made since `since`, oldest first. */
    async analysesSince(userId: number, since: Date) {
      const rows = await rowsOf<{ id: number }>(
        db,
        sql`select a.id from ${src.analyses} a where a.user_id = ${userId} and a.created_at >= ${since} order by a.id`,
      );
      return rows.map((r) => r.id);
    },

    /** A changed district keeps, within DISTRICT_SETTLE_DAYS, the one surveillance goes by (decision 0127). */
    async saveSettings(userId: number, s: SettingsInput, now: Date) {
      const d = s.district ?? null;
      const changed = sql`(${d}::text is not null and district is not null and ${d}::text <> district)`;
      const settledBy = new Date(now.getTime() - DISTRICT_SETTLE_DAYS * 86_400_000).toISOString();
      const [row] = await rowsOf<Settings>(
        db,
        sql`update users set district_before = case when ${changed} and (district_changed_at is null
                or district_changed_at <= ${settledBy}::timestamptz) then district else district_before end,
              district_changed_at = case when ${changed} then ${now.toISOString()}::timestamptz else district_changed_at end,
              district = coalesce(${d}, district),
              sms_alerts = coalesce(${s.smsAlerts ?? null}::boolean, sms_alerts),
              voice_warnings = coalesce(${s.voiceWarnings ?? null}::boolean, voice_warnings)
            where id = ${userId} returning district, sms_alerts as "smsAlerts", voice_warnings as "voiceWarnings", role`,
      );
      return row;
    },
  };
}

/**
 * The repair: rebuilds every case state, farmer-week and count from the analyses and verdicts, in one
 * transaction (set-based SQL). A case keeps the district it was first counted in; analyses not counted
 * yet take the district their farmer had settled in when the photo was taken (`settledDistrictSql`). Never run on a confirmation (those move the counts by their
 * difference); `npm run outbreak:recount`.
 */
export async function recountAll(db: Db, now: Date, src: OutbreakSources): Promise<{ cases: number; counts: number }> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`lock table outbreak_counts in exclusive mode`);
    await tx.execute(sql`insert into outbreak_cases (analysis_id, user_id, district, crop, week_start, state, unreviewed, demo)
      select a.id, a.user_id, ${settledDistrictSql}, coalesce(a.crop, 'other'),
        (date_trunc('week', a.created_at at time zone 'UTC'))::date, ${caseStateSql}, r.verdict is null, a.demo
      from ${src.analyses} a join users u on u.id = a.user_id left join ${src.verdicts} r on r.analysis_id = a.id
      where ${settledDistrictSql} is not null and ${caseStateSql} <> 'none'
      on conflict (analysis_id) do nothing`);
    await tx.execute(sql`update outbreak_cases c set state = s.state, unreviewed = s.state = 'reported' and s.unreviewed
      from (select a.id, ${caseStateSql} as state, r.verdict is null as unreviewed
            from ${src.analyses} a left join ${src.verdicts} r on r.analysis_id = a.id) s
      where s.id = c.analysis_id and (c.state <> s.state or c.unreviewed <> (s.state = 'reported' and s.unreviewed))`);
    await tx.execute(sql`delete from outbreak_farmer_weeks`);
    await tx.execute(sql`insert into outbreak_farmer_weeks (user_id, crop, week_start, district, state, unreviewed, demo)
      select user_id, crop, week_start, min(district),
        case when bool_or(state = 'confirmed') then 'confirmed' when bool_or(state = 'reported') then 'reported' else 'none' end,
        not bool_or(state = 'confirmed') and bool_or(state = 'reported' and unreviewed), bool_or(demo)
      from outbreak_cases group by user_id, crop, week_start`);
    await tx.execute(sql`delete from outbreak_counts`);
    await tx.execute(sql`insert into outbreak_counts (district, crop, week_start, demo, confirmed, reported, unreviewed, updated_at)
      select district, crop, week_start, demo, count(*) filter (where state = 'confirmed'),
        count(*) filter (where state = 'reported'), count(*) filter (where unreviewed), ${now}
      from outbreak_farmer_weeks where state <> 'none' group by district, crop, week_start, demo`);
    const [c] = await rowsOf<{ n: number }>(tx, sql`select count(*)::int as n from outbreak_cases`);
    const [k] = await rowsOf<{ n: number }>(tx, sql`select count(*)::int as n from outbreak_counts`);
    return { cases: Number(c.n), counts: Number(k.n) };
  });
}
export type OutbreakRepo = ReturnType<typeof createOutbreakRepo>;
