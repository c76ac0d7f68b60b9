import { inArray } from 'drizzle-orm';
import { QueryBuilder } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.ts';
import { trainingJobs, trainingSamples } from '../../db/schema/index.ts';

/**
 * Training samples and jobs as another module's query counts them (the dashboard), read only:
 * subqueries PostgreSQL folds into the tables' own plans, so this module alone decides their shape.
 */
export const sampleFacts = new QueryBuilder()
  .select({
    uploaderId: trainingSamples.uploaderId,
    sourceAnalysisId: trainingSamples.sourceAnalysisId,
    label: trainingSamples.label,
    removedAt: trainingSamples.removedAt,
  })
  .from(trainingSamples)
  .as('sample_facts');

export const jobFacts = new QueryBuilder()
  .select({ status: trainingJobs.status, startedBy: trainingJobs.startedBy })
  .from(trainingJobs)
  .as('job_facts');

/** Which of these upload keys a training sample refers to (the orphan photo sweep's). */
export async function samplePhotoKeys(db: Db, keys: string[]): Promise<string[]> {
  return (
    await db
      .select({ key: trainingSamples.imagePath })
      .from(trainingSamples)
      .where(inArray(trainingSamples.imagePath, keys))
  ).map((r) => r.key);
}
