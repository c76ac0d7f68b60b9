import type { Db } from '../../db/client.ts';
import { createDecisionsRepo } from './decisions.repo.ts';
import { createFiguresRepo } from './figures.repo.ts';
import { createMyReviewsRepo } from './my-reviews.repo.ts';
import { createQueueRepo } from './queue.repo.ts';

export type { Decision, ReviewRow, ReviewWithNames } from './decisions.repo.ts';
export type { QueueFilters } from './queue.repo.ts';

/** The review module's queries, kept by job: the queue, one item's decision, a person's own reviews, figures. */
export function createReviewRepo(db: Db) {
  return {
    ...createQueueRepo(db),
    ...createDecisionsRepo(db),
    ...createMyReviewsRepo(db),
    ...createFiguresRepo(db),
  };
}
