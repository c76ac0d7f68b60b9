import type { Db } from '../../db/client.ts';
import type { ExpertQueue } from '../../lib/expert-queue.ts';
import { createReviewRepo } from './review.repo.ts';

/**
 * The experts' queue as the modules that feed it see it (lib/expert-queue.ts: follow-ups, a field's
 * walks, an officer's week). The review service itself uses those modules, so this small service is
 * built before them in services.ts and handed in as the port (docs/decisions/0056).
 */
export function createEscalationService(db: Db): ExpertQueue {
  const reviews = createReviewRepo(db);
  return {
    escalate: (analysisId, reason, now, runner) => reviews.escalate(analysisId, reason, now, runner),
    reopen: (analysisId, reason, now, runner) => reviews.reopen(analysisId, reason, now, runner),
    waitingIn: (district) => reviews.waitingIn(district),
  };
}
