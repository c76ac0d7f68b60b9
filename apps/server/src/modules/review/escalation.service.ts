import type { Db, Tx } from '../../db/client.ts';
import type { StoredMessage } from '../../i18n/i18n.ts';
import { createReviewRepo } from './review.repo.ts';

/**
 * Putting an analysis in front of the experts, and what waits there, for the modules that need it without
 * going through the review service (follow-ups, by photo or by phone; an extension officer's week): the
 * review service itself uses those modules, so this small service is built before them in services.ts
 * (docs/decisions/0056).
 */
export function createEscalationService(db: Db) {
  const reviews = createReviewRepo(db);
  return {
    /** Asks the experts about the analysis with `reason`, in `runner`'s transaction; false once decided. */
    escalate(analysisId: number, reason: StoredMessage, now: Date, runner?: Db | Tx): Promise<boolean> {
      return reviews.escalate(analysisId, reason, now, runner);
    },
    /** As escalate, and a decided analysis is undecided again: the farmer says the field got worse since. */
    reopen(analysisId: number, reason: StoredMessage, now: Date, runner?: Db | Tx): Promise<void> {
      return reviews.reopen(analysisId, reason, now, runner);
    },
    /** The photos of a district's farmers waiting for an expert now, and since when the oldest has waited. */
    waitingIn(district: string): Promise<{ waiting: number; oldest: Date | null }> {
      return reviews.waitingIn(district);
    },
  };
}
export type EscalationService = ReturnType<typeof createEscalationService>;
