import type { ModuleDeps } from '../../deps.ts';
import { message, storeMessage } from '../../i18n/i18n.ts';
import type { ExpertQueue } from '../../lib/expert-queue.ts';
import { createFollowUpRepo, type FollowUpRow, type FollowUpSources } from './followup.repo.ts';

/** What a farmer without a camera says of a treated field (USSD menu). */
export type SpokenOutcome = 'better' | 'same' | 'worse';

/**
 * The follow-up question answered in words instead of a photo (docs/decisions/0051, after 0044): the
 * farmer's open reminder closes with their answer, once it is due (the SMS and the app said when Kutu
 * asks). Worse puts the first diagnosis back in the expert queue, decided or not (a plant clinic's is
 * decided by the visit's expert); "same" is stored as `unclear` (no photo to compare, so no claim of less
 * rust) and the farmer is pointed to "call me back".
 */
export function createPhoneFollowUp(
  deps: Pick<ModuleDeps, 'db' | 'clock'>,
  reviews: ExpertQueue,
  sources: FollowUpSources,
) {
  const repo = createFollowUpRepo(deps.db, sources);

  return {
    /** The farmer's open reminder (the oldest), if any: the one the question is about. */
    async openOf(userId: number): Promise<FollowUpRow | undefined> {
      return repo.oldestOpen(userId);
    },

    /**
     * Closes the reminder with the farmer's answer: `early` before it is due, `gone` when it was closed
     * meanwhile.
     */
    async answer(userId: number, reminderId: number, said: SpokenOutcome): Promise<'done' | 'early' | 'gone'> {
      const now = deps.clock.now();
      return deps.db.transaction(async (tx) => {
        const reminder = await repo.ownOpen(userId, reminderId, tx);
        if (!reminder) return 'gone';
        if (reminder.dueAt.getTime() > now.getTime()) return 'early';
        const worse = said === 'worse';
        const closed = await repo.close(
          reminder.id,
          {
            state: 'compared',
            nextAnalysisId: null,
            outcome: said === 'same' ? 'unclear' : said,
            escalated: worse,
            closedAt: now,
          },
          tx,
        );
        if (!closed) return 'gone';
        // A walk's reminder has no photo to put back in front of the experts: the officers' week lists it.
        if (worse && reminder.analysisId !== null) {
          const reason = storeMessage(message('followUp.reasonByPhone', { first: `#${reminder.analysisId}` }));
          await reviews.reopen(reminder.analysisId, reason, now, tx);
        }
        return 'done';
      });
    },
  };
}
export type PhoneFollowUp = ReturnType<typeof createPhoneFollowUp>;
