import type { Field, Walk, WalkInput } from '@kutu/contract';
import { adviseField, compareWalks, walkTotals, weeksSincePlanting } from '@kutu/contract/field-rules';
import { fieldsApi } from '@kutu/contract/fields-paths';
import { IDEMPOTENCY_KEY_HEADER } from '@kutu/contract/paths';
import { request } from '../api.ts';
import i18n from '../i18n.ts';
import { session } from '../session.ts';
import { transient } from './queue.ts';
import { offlineDb, type QueuedWalk } from './store.ts';
import { userList } from './user-list.ts';

/** A walk as it is sent: its stops, when it was made, and the stage the farmer said, if any. */
export type WalkBody = WalkInput & { walked_at: string };

/**
 * Sends a walk with its idempotency key: a walk whose answer was lost (or sent again from the phone's
 * queue) is answered with the same walk, never counted twice.
 */
export function sendWalk(fieldId: number, body: WalkBody, key: string): Promise<Walk> {
  return request<Walk>(fieldsApi.walksPath(fieldId), {
    method: 'POST',
    body,
    headers: { [IDEMPOTENCY_KEY_HEADER]: key },
  });
}

/**
 * The answer the server would give, worked out on the phone with the same rules (field-rules.ts):
 * incidence, the crop's age, the advice, and the comparison with the walk before (`before`).
 */
export function walkOnPhone(field: Field, body: WalkBody, before: Walk | null): Walk {
  const totals = walkTotals(body.stops);
  const weeks = field.planted_on ? weeksSincePlanting(field.planted_on, new Date(body.walked_at)) : null;
  const advice = adviseField({ ...totals, crop: field.crop, weeks, stageSaid: body.growth_stage ?? null });
  return {
    id: 0,
    field_id: field.id,
    walked_at: body.walked_at,
    channel: 'offline',
    recorded_by_expert: false,
    stops: body.stops,
    plants_looked: totals.looked,
    plants_rust: totals.rust,
    incidence: advice.incidence,
    crop: field.crop,
    weeks_since_planting: weeks,
    growth_stage: advice.stage,
    stage_said: Boolean(body.growth_stage),
    advice: {
      rule: advice.rule,
      version: advice.version,
      action: advice.action,
      steps: advice.steps,
      walk_again_days: advice.walkAgainDays,
      sources: advice.sources,
    },
    compared: before && {
      walk_id: before.id,
      walked_at: before.walked_at,
      plants_looked: before.plants_looked,
      plants_rust: before.plants_rust,
      outcome: compareWalks(
        { looked: before.plants_looked, rust: before.plants_rust },
        { looked: totals.looked, rust: totals.rust },
      ),
    },
  };
}

const walks = userList<QueuedWalk>(
  async (id) => (typeof indexedDB === 'undefined' ? [] : (await offlineDb()).getAllFromIndex('walks', 'byUser', id)),
  (a, b) => a.body.walked_at.localeCompare(b.body.walked_at),
);

/** The signed-in user's walks waiting to be sent (and those the server refused), oldest first. */
export const useWalkQueue = walks.use;

/** The field's latest walk, counting those still on the phone: what a new walk is compared with. */
export function latestWalk(field: Field, queued: readonly QueuedWalk[]): Walk | null {
  const mine = queued.filter((q) => q.fieldId === field.id && q.error === null).map((q) => q.answer);
  return [field.last_walk, ...mine]
    .filter((w): w is Walk => w !== null)
    .reduce<Walk | null>((a, b) => (a && a.walked_at >= b.walked_at ? a : b), null);
}

/**
 * Keeps a walk counted with no signal on the phone, with the answer the phone gave, to send later (said
 * `offline`: the server records it as counted without a connection).
 */
export async function enqueueWalk(walk: { key: string; fieldId: number; body: WalkBody; answer: Walk }) {
  const userId = session.user()?.id;
  if (userId === undefined) throw new Error(i18n.t('offline.errors.signIn'));
  const body = { ...walk.body, offline: true };
  await (await offlineDb()).put('walks', { ...walk, body, userId, error: null });
  await walks.reload();
}

let flushing: Promise<Walk[]> | null = null;

/**
 * Sends every waiting walk, oldest first (the server compares each with the one before), with its key and
 * the time it was walked. Stops at the first failure worth retrying (still offline); a walk the server
 * refuses keeps its reason and is not retried.
 */
export function flushWalks(): Promise<Walk[]> {
  flushing ??= (async () => {
    const sent: Walk[] = [];
    try {
      await walks.reload();
      const db = await offlineDb();
      for (const item of walks.snapshot().filter((w) => w.error === null)) {
        try {
          sent.push(await sendWalk(item.fieldId, item.body, item.key));
          await db.delete('walks', item.key);
        } catch (err) {
          if (transient(err)) break;
          await db.put('walks', { ...item, error: (err as Error).message });
        }
      }
    } finally {
      await walks.reload();
      flushing = null;
    }
    return sent;
  })();
  return flushing;
}

/**
 * Sends the waiting walks (OfflineSync, when the signal is back) and says how many went, in the fields'
 * strings (which the walk's screens brought and the worker keeps); null when none was sent.
 */
export async function flushWalksAndSay(): Promise<string | null> {
  const sent = await flushWalks();
  if (sent.length === 0) return null;
  await (await import('../fields-strings.ts')).screenStringsReady;
  return i18n.t('fields.queue.sent', { count: sent.length });
}
