import {
  type GrowthStage,
  type PageQuery,
  type Walk,
  type WalkChannel,
  type WalkList,
  type WalkStop,
  WALK_MAX_AGE_DAYS,
  walkInput,
} from '@kutu/contract';
import { adviseField, compareWalks, walkTotals, weeksSincePlanting } from '@kutu/contract/field-rules';
import type { ModuleDeps } from '../../deps.ts';
import type { Tx } from '../../db/client.ts';
import { contractMessage, message, storeMessage } from '../../i18n/i18n.ts';
import { AppError, badRequest, notFound } from '../../lib/errors.ts';
import { pageWindow, toPage } from '../../lib/pagination.ts';
import type { FollowUpService } from '../followup/followup.service.ts';
import type { ExpertQueue } from '../../lib/expert-queue.ts';
import { walkView } from './field-views.ts';
import type { FieldsService } from './fields.service.ts';
import type { FieldPhotos, FieldRow } from './fields.repo.ts';
import { createWalksRepo, type WalkRow } from './walks.repo.ts';
import { HOLD_WINDOW_DAYS, holdOf } from './walk-hold.ts';

/** A walk's answer in words, which the basic-phone module's SMS and a clinic visit's result SMS say too. */
export { walkAnswer } from './walk-answer.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
/** A phone's clock may run a little ahead of the server's: a walk this far "in the future" is now. */
const CLOCK_SLACK_MS = 5 * 60_000;

/** How a walk reached Kutu, and what came with it. */
export interface WalkOptions {
  channel: WalkChannel;
  /** Who counted (the farmer, or the expert at a plant clinic); the owner when left out. */
  recordedBy?: number;
  /** The stage said at the walk, which wins over the planting date's. */
  stageSaid?: GrowthStage;
  /** When the walk was made (a walk counted offline is sent later); now when left out. */
  walkedAt?: Date;
  /** The client's key: a retry answers with the first walk and makes none. */
  idempotencyKey?: string;
}

/** The photo of a worse walk that goes to the experts: the first stop photo where rust was counted, else any. */
function stopPhoto(stops: WalkStop[]): number | undefined {
  return (stops.find((s) => s.analysis_id && s.rust > 0) ?? stops.find((s) => s.analysis_id))?.analysis_id;
}

/**
 * Scouting walks (docs/decisions/0078): the counts of a field's walk, its advice from crop, stage and
 * incidence (`adviseField`), compared with the field's walk before (`compareWalks`); the field's reminder
 * answered and the next one opened (the follow-up service); a worse walk with a leaf photo in front of the
 * experts, one without it for the officers' week (`worseIn`).
 */
export function createWalksService(
  deps: Pick<ModuleDeps, 'db' | 'clock'>,
  fields: FieldsService,
  followUps: FollowUpService,
  reviews: ExpertQueue,
  photos: FieldPhotos,
) {
  const repo = createWalksRepo(deps.db, photos);

  /** The stops as the contract checks them (every channel's, not only the web's), or a clear 400. */
  function checked(stops: WalkStop[], stage: GrowthStage | undefined): WalkStop[] {
    const parsed = walkInput.safeParse({ stops, growth_stage: stage });
    if (parsed.success) return parsed.data.stops;
    const issue = parsed.error.issues[0];
    const text = contractMessage(issue?.message ?? 'Count at least one stop');
    throw badRequest(text, { [issue?.path.join('.') || 'stops']: text });
  }

  function checkWhen(walkedAt: Date, now: Date) {
    if (walkedAt.getTime() > now.getTime() + CLOCK_SLACK_MS)
      throw badRequest('errors.fields.walkFuture', { walked_at: 'errors.fields.walkFuture' });
    if (walkedAt.getTime() < now.getTime() - WALK_MAX_AGE_DAYS * DAY_MS) {
      const text = { key: 'errors.fields.walkTooOld', params: { days: WALK_MAX_AGE_DAYS } } as const;
      throw badRequest(text, { walked_at: text });
    }
  }

  /** Puts a worse walk's leaf photo in front of the experts, with the counts; false when none went. */
  async function escalate(field: FieldRow, walk: WalkRow, before: WalkRow, tx: Tx): Promise<boolean> {
    const photo = stopPhoto(walk.stops);
    if (!photo) return false;
    const counts = (w: WalkRow) => message('followUp.counts', { rust: w.plantsRust, looked: w.plantsLooked });
    const reason = storeMessage(
      message('followUp.reasonWalk', {
        field: field.name,
        before: counts(before),
        now: counts(walk),
        date: before.walkedAt,
      }),
    );
    return reviews.escalate(photo, reason, deps.clock.now(), tx);
  }

  async function view(row: WalkRow): Promise<Walk> {
    const field = await fields.own({ userId: row.userId }, row.fieldId);
    return walkView(row, field.crop);
  }

  return {
    /**
     * Records a walk of the owner's live field from any channel (web, offline, USSD, SMS, clinic) and answers
     * with it. With an idempotency key already used by the owner, the first walk comes back (`created` false).
     * 404: not the owner's field; 409: a retired field; 400: counts, time or a stop photo that is not one of
     * the owner's photos of this field.
     */
    async record(
      owner: number,
      fieldId: number,
      stops: WalkStop[],
      opts: WalkOptions,
    ): Promise<{ walk: Walk; created: boolean }> {
      const key = opts.idempotencyKey;
      const earlier = key ? await repo.byKey(owner, key) : undefined;
      if (earlier) return { walk: await view(earlier), created: false };
      const field = await fields.ownLive({ userId: owner }, fieldId);
      const counted = checked(stops, opts.stageSaid);
      const now = deps.clock.now();
      const walkedAt = opts.walkedAt ?? now;
      checkWhen(walkedAt, now);
      const totals = walkTotals(counted);
      const weeks = field.plantedOn ? weeksSincePlanting(field.plantedOn, walkedAt) : null;
      const advice = adviseField({ ...totals, crop: field.crop, weeks, stageSaid: opts.stageSaid ?? null });
      // A field with a walk still waiting as far stays far until an officer confirms it (decision 0127).
      const near = (await fields.nearItsFarmer(field)) && !(await repo.heldFar(field.id));

      const row = await deps.db.transaction(async (tx) => {
        await repo.lockField(field.id, tx);
        const photos = counted.flatMap((s) => (s.analysis_id ? [s.analysis_id] : []));
        const mine = await repo.photosOfField(owner, field.id, photos, tx);
        const wrong = counted.findIndex((s) => s.analysis_id && !mine.has(s.analysis_id));
        if (wrong >= 0)
          throw badRequest('errors.fields.stopPhoto', { [`stops.${wrong}.analysis_id`]: 'errors.fields.stopPhoto' });
        const before = await repo.before(field.id, walkedAt, tx);
        const comparison = before
          ? compareWalks({ looked: before.plantsLooked, rust: before.plantsRust }, totals)
          : null;
        const others = field.district
          ? await repo.baseline(tx, {
              district: field.district,
              crop: field.crop,
              from: new Date(walkedAt.getTime() - HOLD_WINDOW_DAYS * DAY_MS),
              to: walkedAt,
              exceptUser: owner,
            })
          : [];
        const made = await repo.insertOnce(
          {
            heldFor: holdOf(near, totals, others),
            fieldId: field.id,
            userId: owner,
            recordedBy: opts.recordedBy ?? owner,
            channel: opts.channel,
            idempotencyKey: key ?? null,
            walkedAt,
            stops: counted,
            plantsLooked: totals.looked,
            plantsRust: totals.rust,
            weeksSincePlanting: weeks,
            growthStage: advice.stage,
            stageSaid: Boolean(opts.stageSaid),
            adviceRule: advice.rule,
            rulesVersion: advice.version,
            adviceAction: advice.action,
            adviceSteps: advice.steps,
            walkAgainDays: advice.walkAgainDays,
            adviceSources: advice.sources,
            comparedWalkId: before?.id ?? null,
            comparedWalkedAt: before?.walkedAt ?? null,
            comparedLooked: before?.plantsLooked ?? null,
            comparedRust: before?.plantsRust ?? null,
            comparison,
            createdAt: now,
          },
          tx,
        );
        // The same key at the same moment: the other request made the walk.
        if (!made) return undefined;
        const sent = comparison === 'worse' && before ? await escalate(field, made, before, tx) : false;
        if (sent) await repo.markSentToExpert(made.id, tx);
        const later = await repo.after(field.id, walkedAt, made.id, tx);
        await followUps.afterWalk(
          {
            id: made.id,
            userId: owner,
            fieldId: field.id,
            crop: field.crop,
            walkedAt,
            plantsRust: totals.rust,
            walkAgainDays: advice.walkAgainDays,
            comparison,
            sentToExpert: sent,
            latest: !later,
            byPhone: opts.channel === 'ussd' || opts.channel === 'sms' || opts.channel === 'clinic',
          },
          tx,
        );
        return { ...made, sentToExpert: sent };
      });
      if (row) return { walk: walkView(row, field.crop), created: true };
      const first = key ? await repo.byKey(owner, key) : undefined;
      if (!first) throw new AppError('CONFLICT', 'errors.fields.walkNotFound', 409);
      return { walk: await view(first), created: false };
    },

    /** The owner's walk made earlier with this key, if any (a retried request answers with it). */
    async byKey(owner: number, key: string): Promise<Walk | null> {
      const row = await repo.byKey(owner, key);
      return row ? view(row) : null;
    },

    /** The field's walks, latest first: the owner's field only (404 otherwise), retired ones too. */
    async list(who: { userId: number }, fieldId: number, query: PageQuery): Promise<WalkList> {
      const field = await fields.own(who, fieldId);
      const { rows, total } = await repo.page(field.id, pageWindow(query));
      return toPage(
        rows.map((r) => walkView(r, field.crop)),
        total,
        query,
      );
    },

    /** One walk, for its owner or the expert who counted it at a plant clinic; anyone else gets 404. */
    async get(who: { userId: number }, id: number): Promise<Walk> {
      const row = await repo.find(id);
      if (!row || (row.userId !== who.userId && row.recordedBy !== who.userId))
        throw notFound('errors.fields.walkNotFound');
      return view(row);
    },

    /**
     * The district's walks made in [from, to) that were worse than the walk before and had no leaf photo
     * for the experts (the officers' week lists these farmers), latest first, at most 1000.
     */
    worseIn: (district: string, from: Date, to: Date) => repo.inDistrict(district, from, to, true),

    /** The district's walks made in [from, to) (fields walked, incidence for the officers' week and the map). */
    walksIn: (district: string, from: Date, to: Date) => repo.inDistrict(district, from, to, false),

    /** The district's walks that wait for an expert or officer before they count (decision 0105). */
    heldIn: (district: string) => repo.held(district),

    /** The walk with its field's district (who may confirm it), or undefined. */
    withDistrict: (id: number) => repo.withDistrict(id),

    /** Confirms a held walk: it counts from now on. */
    confirm: (id: number, by: number) => repo.confirm(id, by, deps.clock.now()),

    /**
     * Per district, crop and ISO week from `from` (a Monday) on: the fields walked, each once a week with its
     * latest walk, and the median share of plants with rust on them (the open feed publishes these under the
     * small-count rule).
     */
    weeklyIncidence: (from: string, crop?: string) => repo.weeklyIncidence(from, crop),

    /**
     * Rust on the walks that count since `since`, per district and crop (the forecast's rust near): farmers
     * whose walks found it; farmers who walked and the median share of plants with rust (each field's latest).
     */
    rustSince: (since: Date) => repo.rustSince(since),
  };
}
export type WalksService = ReturnType<typeof createWalksService>;
