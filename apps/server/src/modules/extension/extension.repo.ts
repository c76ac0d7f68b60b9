import type { Language } from '@kutu/contract';
import { type SQL, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { officerActions } from '../../db/schema/index.ts';
import type { FactColumn, FactsPort } from '../../lib/facts-port.ts';
import { analysisFacts } from '../analysis/analysis.service.ts';
import { deliveryFacts as m } from '../delivery/delivery.service.ts';
import { followUpFacts as f } from '../followup/followup.service.ts';
import { noticeFacts as n } from '../notifications/notifications.service.ts';
import { alertFacts as a, farmerWeekFacts as fw } from '../outbreak/outbreak.service.ts';

const rowsOf = async <T>(db: Db, query: SQL): Promise<T[]> =>
  ((await db.execute(query)) as unknown as { rows: T[] }).rows;

/** One district's week: [from, to) in time, the district's code. */
export interface WeekWindow {
  district: string;
  from: Date;
  to: Date;
}

/** The farmers of a district (their account's district now), as a subquery. */
const farmersOf = (district: string) => sql`(select id from users where district = ${district} and role = 'farmer')`;

/**
 * A district's week, read across the features that gather it (read only, through each owner's facts;
 * each feature keeps its own writes): rust cases per farmer, alerts and their outbox rows, plant-clinic visits, follow-ups, farmers who
 * said worse or asked to be called back, and the officers' notes (what waits for an expert: the review module's).
 */
/**
 * What the week reads of plant-clinic visits and call-back requests, and how a call closes the farmer's
 * requests: the clinic's and the basic phone's (both modules use this one, so services.ts hands them in).
 */
export interface ExtensionSources {
  visits: FactsPort<{ farmerId: FactColumn<number>; verdict: FactColumn<string, false>; createdAt: FactColumn<Date> }>;
  callbacks: FactsPort<{ userId: FactColumn<number>; createdAt: FactColumn<Date>; doneAt: FactColumn<Date, false> }>;
  closeCallbacks(tx: Tx, call: { farmerId: number; at: Date; by: number | null; actionId: number }): Promise<void>;
}

export function createExtensionRepo(db: Db, { visits: v, callbacks: cb, closeCallbacks }: ExtensionSources) {
  return {
    /**
     * The district's farmers with rust per crop and week since `from` (real, not try-out), from the outbreak
     * watch's farmer-weeks: one row per farmer, crop and week, confirmed if an expert confirmed any of its
     * photos, else reported when the model did. Counted there, a farmer is never both.
     */
    farmerWeeks: (district: string, from: string, to: string) =>
      rowsOf<{ crop: string; weekStart: string; confirmed: number; reported: number }>(
        db,
        sql`select ${fw.crop} as crop, ${fw.weekStart}::text as "weekStart",
              count(*) filter (where ${fw.state} = 'confirmed')::int as confirmed,
              count(*) filter (where ${fw.state} = 'reported')::int as reported
            from ${fw}
            where ${fw.district} = ${district} and ${fw.weekStart} >= ${from} and ${fw.weekStart} <= ${to} and not ${fw.demo}
            group by ${fw.crop}, ${fw.weekStart}`,
      ),

    /** Alerts of the district open at any time in the week, with how their messages went. */
    alerts: (w: WeekWindow) =>
      rowsOf<{
        crop: string;
        sourceDistrict: string;
        raisedAt: Date | string;
        endedAt: Date | string | null;
        told: number;
        delivered: number;
        failed: number;
        waiting: number;
      }>(
        db,
        // Each message's key starts `outbreak:<alert>|` (docs/decisions/0050): a byte-wise range on the
        // keys' text_pattern_ops indexes ('|' sorts just before '}'), never a scan of the whole outbox.
        sql`select ${a.crop} as crop, ${a.sourceDistrict} as "sourceDistrict", ${a.raisedAt} as "raisedAt",
              ${a.endedAt} as "endedAt",
              (select count(*)::int from ${n}
                where ${n.key} ~>=~ ('outbreak:' || ${a.id} || '|') and ${n.key} ~<~ ('outbreak:' || ${a.id} || '}')) as told,
              d.delivered, d.failed, d.waiting
            from ${a}
            cross join lateral (
              select count(*) filter (where ${m.state} = 'sent')::int as delivered,
                     count(*) filter (where ${m.state} = 'failed')::int as failed,
                     count(*) filter (where ${m.state} in ('waiting', 'sending'))::int as waiting
              from ${m}
              where ${m.key} ~>=~ ('outbreak:' || ${a.id} || '|') and ${m.key} ~<~ ('outbreak:' || ${a.id} || '}')
                and ${m.channel} = 'sms') d
            where ${a.district} = ${w.district} and ${a.raisedAt} < ${w.to}
              and (${a.endedAt} is null or ${a.endedAt} >= ${w.from})
            order by ${a.raisedAt}`,
      ),

    /**
     * How a forecast advisory's messages to the district's farmers went (the forecast's key per crop and week,
     * `rust-advisory:<crop>:<week>|<farmer>`; the in-app notice names the district): farmers told, and their SMS.
     * Staff keys (`…:<week>:<district>|…`) sort before '|' and are not counted.
     */
    advisoryCounts: async (district: string, crop: string, weekStart: string) => {
      const prefix = `rust-advisory:${crop}:${weekStart}`;
      const [row] = await rowsOf<{ told: number; delivered: number; failed: number; waiting: number }>(
        db,
        sql`select count(distinct ${n.key})::int as told,
              count(*) filter (where ${m.state} = 'sent')::int as delivered,
              count(*) filter (where ${m.state} = 'failed')::int as failed,
              count(*) filter (where ${m.state} in ('waiting', 'sending'))::int as waiting
            from ${n}
            left join ${m} on ${m.key} = ${n.key} || '|sms' and ${m.channel} = 'sms'
            where ${n.key} ~>=~ ${`${prefix}|`} and ${n.key} ~<~ ${`${prefix}}`}
              and ${n.data} ->> 'district' = ${district}`,
      );
      return row ?? { told: 0, delivered: 0, failed: 0, waiting: 0 };
    },

    /** Plant-clinic visits of the district's farmers in the week, by the expert's finding (null: undecided). */
    clinic: (w: WeekWindow) =>
      rowsOf<{ verdict: string | null; n: number }>(
        db,
        sql`select ${v.verdict} as verdict, count(*)::int as n from ${v}
            where ${v.farmerId} in ${farmersOf(w.district)} and ${v.createdAt} >= ${w.from} and ${v.createdAt} < ${w.to}
            group by ${v.verdict}`,
      ),

    /** Follow-ups answered in the week (by a photo or on a basic phone), by outcome. */
    followUps: (w: WeekWindow) =>
      rowsOf<{ outcome: string; n: number }>(
        db,
        sql`select ${f.outcome} as outcome, count(*)::int as n from ${f}
            where ${f.userId} in ${farmersOf(w.district)} and ${f.state} in ('compared', 'cancelled')
              and ${f.outcome} is not null and ${f.closedAt} >= ${w.from} and ${f.closedAt} < ${w.to}
            group by ${f.outcome}`,
      ),

    /**
     * Farmers who said worse in the week, or asked to be called back (still open, or in the week). A reminder a
     * walk answered is not one: the walk is, if it went to no expert (the service adds the week's worse walks).
     */
    farmers: (w: WeekWindow) =>
      rowsOf<{
        farmerId: number;
        username: string;
        phone: string;
        language: Language;
        reason: 'worse' | 'callback';
        at: Date | string;
        analysisId: number | null;
      }>(
        db,
        sql`select u.id as "farmerId", u.username, u.phone, u.language, x.reason, x.at, x.analysis_id as "analysisId"
            from (
              select ${f.userId} as user_id, 'worse' as reason, ${f.closedAt} as at, ${f.analysisId} as analysis_id
              from ${f}
              where ${f.outcome} = 'worse' and ${f.closedAt} >= ${w.from} and ${f.closedAt} < ${w.to}
                and ${f.nextWalkId} is null and ${f.userId} in ${farmersOf(w.district)}
              union all
              select ${cb.userId}, 'callback', ${cb.createdAt}, null from ${cb}
              where ${cb.userId} in ${farmersOf(w.district)} and ${cb.createdAt} < ${w.to}
                and (${cb.doneAt} is null or ${cb.createdAt} >= ${w.from})
            ) x join users u on u.id = x.user_id
            order by x.at desc limit 200`,
      ),

    /** The accounts of these farmers whose district is `district`: what the week shows of a farmer to call. */
    async farmerAccounts(district: string, ids: number[]) {
      if (ids.length === 0) return new Map<number, { username: string; phone: string; language: Language }>();
      const rows = await rowsOf<{ id: number; username: string; phone: string; language: Language }>(
        db,
        sql`select id, username, phone, language from users
            where district = ${district} and role = 'farmer' and id in (${sql.join(
              ids.map((id) => sql`${id}`),
              sql`, `,
            )})`,
      );
      return new Map(rows.map(({ id, ...r }) => [id, r]));
    },

    /** Officers' notes on these farmers, newest first. */
    notesOf: (farmerIds: number[]) =>
      farmerIds.length === 0
        ? Promise.resolve([])
        : rowsOf<{
            id: number;
            farmerId: number;
            kind: 'called' | 'visited';
            note: string;
            at: Date | string;
            officer: string | null;
            district: string;
          }>(
            db,
            sql`select o.id, o.farmer_id as "farmerId", o.kind, o.note, o.created_at as at, u.username as officer, o.district
                from officer_actions o left join users u on u.id = o.officer_id
                where o.farmer_id in (${sql.join(
                  farmerIds.map((id) => sql`${id}`),
                  sql`, `,
                )})
                order by o.created_at desc, o.id desc`,
          ),

    /** The farmer's district, when the id is a farmer's. */
    async farmerDistrict(farmerId: number): Promise<string | null | undefined> {
      const [row] = await rowsOf<{ district: string | null }>(
        db,
        sql`select district from users where id = ${farmerId} and role = 'farmer'`,
      );
      return row ? row.district : undefined;
    },

    /** Whether the analysis is the farmer's. */
    async analysisOf(analysisId: number, farmerId: number): Promise<boolean> {
      const rows = await rowsOf(
        db,
        sql`select 1 from ${analysisFacts} where ${analysisFacts.id} = ${analysisId} and ${analysisFacts.userId} = ${farmerId}`,
      );
      return rows.length > 0;
    },

    /**
     * Records a call or a visit; a call also closes the farmer's open call-back requests, naming the call
     * (the experts' list says an officer called, and what they noted).
     */
    addAction: (a: typeof officerActions.$inferInsert) =>
      db.transaction(async (tx) => {
        const [row] = await tx.insert(officerActions).values(a).returning();
        if (a.kind === 'called') {
          await closeCallbacks(tx, {
            farmerId: a.farmerId,
            at: a.createdAt,
            by: a.officerId ?? null,
            actionId: row!.id,
          });
        }
        return row;
      }),
  };
}
