import {
  adviceTopicFor,
  type AnalysisCrop,
  type FollowUpInfo,
  type FollowUpOutcome,
  type OpenFollowUp,
  type RustClass,
  shortLinks,
  ussdMenuNumber,
} from '@kutu/contract';
import type { ModuleDeps } from '../../deps.ts';
import { message, storeMessage } from '../../i18n/i18n.ts';
import { smsMessage } from '../../i18n/sms-texts.ts';
import type { Tell } from '../../lib/deliverer.ts';
import type { Tx } from '../../db/client.ts';
import { smsSafe } from '../../lib/sms-text.ts';
import type { ExpertQueue } from '../../lib/expert-queue.ts';
import { type ComparedAnswer, compareFollowUp, rustConfidence } from './compare.ts';
import { shownShare } from '@kutu/vision';
import { createFollowUpRepo, type FollowUpRow, type FollowUpSources } from './followup.repo.ts';
import { createPhoneFollowUp } from './phone-answer.ts';

/** A field's reminders as other modules' queries read them (a field's waiting reminder). */
export { followUpFacts } from './facts.repo.ts';

/** The follow-up's question as a basic phone answers it (the basic-phone module's menu). */
export type { PhoneFollowUp, SpokenOutcome } from './phone-answer.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Kutu asks for the new photo this many days after advice to treat (the window is 7 to 10 days). */
export const FOLLOW_UP_AFTER_DAYS = 7;
/** A sent reminder waits this long for the field's next photo; later ones are a new story. */
export const FOLLOW_UP_ANSWER_DAYS = 14;
/** Reminders claimed and sent per step of a sweep. */
const SEND_BATCH = 100;
/** Open reminders listed for the farmer's choice: one per field is the rule, a few is plenty. */
const OPEN_LISTED = 10;

/** The facts of an analysis the follow-up reads: its owner, field, time and answer. */
export interface AnalysisFacts extends ComparedAnswer {
  id: number;
  userId: number;
  crop: AnalysisCrop | null;
  /** The field the photo is of (null only for rows written before fields, by hand). */
  fieldId: number | null;
  confidence: number;
  createdAt: Date;
}

/** A scouting walk as the reminders read it (docs/decisions/0078). */
export interface WalkFacts {
  id: number;
  userId: number;
  fieldId: number;
  crop: AnalysisCrop;
  walkedAt: Date;
  plantsRust: number;
  /** When the advice asks for the next walk; null when not this season. */
  walkAgainDays: number | null;
  /** Against the field's walk before it; null for a first walk. */
  comparison: WalkOutcome | null;
  sentToExpert: boolean;
  /** No later walk of the field was made: only the latest walk opens the next reminder. */
  latest: boolean;
  /** Counted on a basic phone or at a plant clinic: the next reminder asks for the walk by USSD or SMS. */
  byPhone: boolean;
}
type WalkOutcome = 'better' | 'same' | 'worse' | 'too_few_plants';

const percent = (share: number) => `${(share * 100).toFixed(0)}%`;
/** A field's name as an SMS can carry it in one GSM-7 message: characters outside GSM-7 left out, else its number. */
const smsName = (name: string, number: number) => smsSafe(name) || `#${number}`;

/** Advice to treat: a confident rust diagnosis (the `common_rust` advice topic). */
export const isTreat = (a: Pick<AnalysisFacts, 'outcome' | 'rustClass' | 'unsure' | 'confidence'>) =>
  adviceTopicFor(a) === 'common_rust';

/** What a result says about its follow-up: when Kutu will remind, and what a follow-up photo found. */
export interface FollowUpView {
  remind_at: string | null;
  follow_up: FollowUpInfo | null;
}

/**
 * Follow-up after advice to treat (docs/decisions/0044): a reminder per treat
 * diagnosis, sent when due in the app and by SMS (unless the farmer turned SMS off); the field's next
 * photo closes it with a comparison, and one that looks worse goes straight to the expert queue.
 */
/**
 * The field a photo without one belongs to (the fields service's `defaultFor`, handed in by services.ts):
 * the fields module's walks answer follow-ups, so follow-ups know fields only as this one call.
 */
export interface DefaultField {
  defaultFor(userId: number, crop: AnalysisCrop | null): Promise<{ id: number }>;
}

export function createFollowUpService(
  deps: Pick<ModuleDeps, 'db' | 'clock' | 'delivery' | 'config'>,
  reviews: ExpertQueue,
  fields: DefaultField,
  sources: FollowUpSources,
) {
  const repo = createFollowUpRepo(deps.db, sources);

  /**
   * Why Kutu put a follow-up photo in front of the experts, kept as a catalog key for their language: the
   * two confidences in rust (what the comparison used; the rust-coloured share of a leaf never decides).
   */
  const reasonFor = (first: ComparedAnswer & { id: number }, next: ComparedAnswer) =>
    storeMessage(
      message('followUp.reason', {
        first: `#${first.id}`,
        before: percent(rustConfidence(first)),
        now: percent(rustConfidence(next)),
      }),
    );

  /** The photo's field; a row written without one (by hand, before fields) goes to the farmer's field of its crop. */
  const fieldOf = async (a: AnalysisFacts) => a.fieldId ?? (await fields.defaultFor(a.userId, a.crop)).id;

  /** Compares the new photo with the reminder's diagnosis and closes the reminder; worse goes to experts. */
  async function close(reminder: FollowUpRow, next: AnalysisFacts): Promise<void> {
    if (reminder.analysisId === null) return;
    const first = await repo.answerOf(reminder.analysisId);
    if (!first) return;
    const outcome = compareFollowUp(first, next);
    const now = deps.clock.now();
    // Closed and queued together: a reminder marked escalated always has its place in the queue.
    await deps.db.transaction(async (tx) => {
      const closed = await repo.close(
        reminder.id,
        {
          // Before the reminder went out the photo cancels it; after, it answers it.
          state: reminder.state === 'waiting' ? 'cancelled' : 'compared',
          nextAnalysisId: next.id,
          outcome,
          escalated: outcome === 'worse',
          closedAt: now,
        },
        tx,
      );
      // Another photo of the field closed it first: that one was compared.
      if (closed && outcome === 'worse') await reviews.escalate(next.id, reasonFor(first, next), now, tx);
    });
  }

  /**
   * More photos changed a follow-up photo's answer (decision 0044, addendum): its comparison is made again
   * with the field answer as stored (its class shares; the rust-coloured share of a leaf never decides, 0078).
   * Now worse: queued for experts, in the same transaction (an entry already there keeps its place, with
   * the new figures). No longer worse: the comparison says so, and a case already queued stays queued.
   */
  async function recompare(analysisId: number): Promise<void> {
    const now = deps.clock.now();
    await deps.db.transaction(async (tx) => {
      // Locked, and the answers read after the lock: photos added one after the other compare in turn,
      // the later with the later answer.
      for (const reminder of await repo.comparedWith(analysisId, tx)) {
        if (reminder.analysisId === null) continue;
        const first = await repo.answerOf(reminder.analysisId, tx);
        const next = await repo.answerOf(analysisId, tx);
        if (!first || !next) continue;
        const outcome = compareFollowUp(first, next);
        const worse = outcome === 'worse';
        await repo.recompare(reminder.id, { outcome, escalated: reminder.escalated || worse }, tx);
        if (worse) await reviews.escalate(analysisId, reasonFor(first, next), now, tx);
      }
    });
  }

  /**
   * A due reminder, told in the app and by SMS (unless the farmer turned SMS alerts off): it names the field
   * and links to its walk (docs/decisions/0078); a farmer seen at a plant clinic (0053), or whose last walk
   * came by USSD or SMS, is pointed to the walk on the USSD menu ("My fields") and by SMS (WALK and the counts).
   */
  function reminderOf(r: FollowUpRow, field: { name: string; number: number } | undefined): Tell {
    const name = field?.name ?? '';
    const link = `${deps.config.publicUrl}${shortLinks.walk(r.fieldId)}`;
    const about = r.analysisId === null ? {} : { analysis_id: r.analysisId, follow_up_of: r.analysisId };
    return {
      to: r.userId,
      key: `follow-up:${r.id}`,
      kind: 'reminder',
      app: {
        type: 'follow_up_reminder',
        text: message('followUp.walkReminder', { field: name }),
        data: { field_id: r.fieldId, ...about },
      },
      sms: r.byUssd
        ? smsMessage('followUp.smsUssd', {
            field: message(`followUp.field.${(r.crop || 'any') as AnalysisCrop | 'any'}`),
            number: field?.number ?? 0,
            code: deps.config.phone.ussdCode,
            menu: ussdMenuNumber('fields'),
          })
        : smsMessage('followUp.walkSms', { field: smsName(name, field?.number ?? 0), link }),
    };
  }

  return {
    /** The same question answered in words on a basic phone (the USSD menu): phone-answer.ts. */
    byPhone: createPhoneFollowUp(deps, reviews, sources),

    /**
     * After a new analysis (not a retry): with `followUpOf` (the farmer said this photo checks that
     * diagnosis's field again: the reminder's link, or their choice on the upload screen), that
     * diagnosis's open reminder is closed by this photo and compared. Without it the photo is a new
     * diagnosis and every reminder stays: the same crop is not the same field (decision 0059). A treat
     * answer opens the next reminder. The caller checked that `followUpOf` is the farmer's own diagnosis
     * of the same crop. A photo without a leaf is not a photo of the field and changes nothing.
     */
    async afterAnalysis(next: AnalysisFacts, followUpOf?: number): Promise<void> {
      if (next.outcome === 'not_leaf') return;
      const linked = followUpOf ? await repo.ofAnalysis(followUpOf) : undefined;
      if (linked && (linked.state === 'waiting' || linked.state === 'sent') && linked.analysisId !== next.id)
        await close(linked, next);
      if (isTreat(next)) await this.remind(next);
    },

    /** The farmer's diagnoses a new photo may follow up (open reminders), newest first. */
    async openFor(userId: number): Promise<OpenFollowUp[]> {
      const rows = await repo.openOf(userId, OPEN_LISTED);
      return rows.map((r) => ({
        analysis_id: r.analysisId,
        crop: r.crop as AnalysisCrop | null,
        analysed_at: r.analysedAt.toISOString(),
        remind_at: r.state === 'waiting' ? r.dueAt.toISOString() : null,
        field_id: r.fieldId,
        field_name: r.fieldName,
      }));
    },

    /** Opens the reminder of a treat diagnosis (nothing when it or its field has one already). */
    async remind(a: AnalysisFacts): Promise<void> {
      await repo.open({
        userId: a.userId,
        analysisId: a.id,
        fieldId: await fieldOf(a),
        crop: a.crop ?? '',
        dueAt: new Date(a.createdAt.getTime() + FOLLOW_UP_AFTER_DAYS * DAY_MS),
        createdAt: deps.clock.now(),
      });
    },

    /**
     * An expert's verdict at a plant clinic (docs/decisions/0053) decides the advice instead of the
     * model: rust opens the reminder, answered by the USSD menu; anything else withdraws an unsent one.
     */
    async afterVerdict(a: AnalysisFacts, rust: boolean): Promise<void> {
      if (!rust) return repo.withdraw(a.id, deps.clock.now());
      await this.remind(a);
      await repo.answerByUssd(a.id);
    },

    /**
     * More photos changed the answer: a treat answer gets its reminder, another loses an unsent one; a
     * follow-up photo is compared again.
     */
    async answerChanged(a: AnalysisFacts): Promise<void> {
      if (isTreat(a)) await this.remind(a);
      else await repo.withdraw(a.id, deps.clock.now());
      await recompare(a.id);
    },

    /**
     * An expert answered (or changed the answer on) a photo, and the answer replaces the model's
     * (docs/decisions/0049): advice to treat gets the reminder a confident rust answer gets, counted from
     * the expert's answer (`a.createdAt`); another answer withdraws an unsent one.
     */
    async expertAnswered(a: AnalysisFacts): Promise<void> {
      if (!isTreat(a)) return repo.withdraw(a.id, deps.clock.now());
      await this.remind(a);
      await repo.reopen(a.id, new Date(a.createdAt.getTime() + FOLLOW_UP_AFTER_DAYS * DAY_MS));
    },

    /**
     * A scouting walk of a field (docs/decisions/0078), in the walk's transaction: it answers the field's open
     * reminder made before it, which keeps the walk's comparison with the walk before (better, same, worse,
     * too few plants; none for a first walk) and whether it went to the experts; a walk that found rust and
     * asks for another walk this season opens the field's next reminder, due when the advice says.
     */
    async afterWalk(walk: WalkFacts, tx: Tx): Promise<void> {
      const now = deps.clock.now();
      const open = await repo.openForField(walk.fieldId, tx);
      if (open && walk.walkedAt.getTime() >= open.createdAt.getTime()) {
        await repo.close(
          open.id,
          {
            state: open.state === 'waiting' ? 'cancelled' : 'compared',
            nextAnalysisId: null,
            nextWalkId: walk.id,
            outcome: walk.comparison,
            escalated: walk.sentToExpert,
            closedAt: now,
          },
          tx,
        );
      }
      if (!walk.latest || walk.plantsRust === 0 || walk.walkAgainDays === null) return;
      await repo.open(
        {
          userId: walk.userId,
          fieldId: walk.fieldId,
          walkId: walk.id,
          crop: walk.crop,
          dueAt: new Date(walk.walkedAt.getTime() + walk.walkAgainDays * DAY_MS),
          byUssd: walk.byPhone,
          createdAt: now,
        },
        tx,
      );
    },

    /**
     * The hourly sweep: tells every due reminder once (claimed in the transaction that writes its
     * messages, so concurrent sweeps share the work) and lets go of sent ones nobody answered. Returns
     * how many were told.
     */
    async sendDue(): Promise<number> {
      const now = deps.clock.now();
      await repo.dropRetired(now);
      await repo.lapse(new Date(now.getTime() - FOLLOW_UP_ANSWER_DAYS * DAY_MS), now);
      let sent = 0;
      for (;;) {
        // Marked sent and written to the outbox in one transaction (docs/decisions/0050): a crash undoes both.
        const claimed = await deps.delivery.transaction(async (tx, tell) => {
          const rows = await repo.claimDue(now, SEND_BATCH, tx);
          const named = await repo.fieldsOf([...new Set(rows.map((r) => r.fieldId))], tx);
          await tell(rows.map((r) => reminderOf(r, named.get(r.fieldId))));
          return rows.length;
        });
        sent += claimed;
        if (claimed < SEND_BATCH) return sent;
      }
    },

    /** A rust-weather week (docs/decisions/0100): the district's reminders for the crop come by `by` at the latest. */
    bringForward: (district: string, crop: string, by: Date) => repo.bringForward(district, crop, by),

    /** Per analysis id: when Kutu will remind (while waiting) and, for a follow-up photo, what it found. */
    async views(ids: number[]): Promise<Map<number, FollowUpView>> {
      const out = new Map<number, FollowUpView>(ids.map((id) => [id, { remind_at: null, follow_up: null }]));
      for (const r of await repo.about(ids)) {
        const own = out.get(r.analysisId);
        if (own && r.state === 'waiting') own.remind_at = r.dueAt.toISOString();
        const next = r.nextAnalysisId === null ? undefined : out.get(r.nextAnalysisId);
        if (next && r.outcome) {
          next.follow_up = {
            of: r.analysisId,
            of_rust_class: r.firstClass as RustClass | null,
            of_confidence: r.firstConfidence,
            // The share the first result shows (none for a field where rust was seen on some leaves only).
            of_severity: shownShare(
              { outcome: r.firstOutcome, rustClass: r.firstClass, unsure: r.firstUnsure },
              r.firstShare,
            ),
            // Closed by a photo: a photo's outcome (a walk's reminder has no next photo).
            outcome: r.outcome as FollowUpOutcome,
            sent_to_expert: r.escalated,
          };
        }
      }
      return out;
    },
  };
}
export type FollowUpService = ReturnType<typeof createFollowUpService>;
