import { sql } from 'drizzle-orm';
import { QueryBuilder } from 'drizzle-orm/pg-core';
import { analyses } from '../../db/schema/index.ts';

/**
 * An analysis's answer as another module's query joins it (a booking's or a post's linked photo, the experts' queue, the dashboard), read
 * only: the columns this module lets others see, as a subquery that PostgreSQL folds into a plain join
 * (the same plan as joining the table), so the analysis module alone decides what the table looks like.
 * E.g. `.leftJoin(analysisFacts, eq(analysisFacts.id, bookings.analysisId))`.
 */
export const analysisFacts = new QueryBuilder()
  .select({
    id: analyses.id,
    userId: analyses.userId,
    outcome: analyses.outcome,
    rustClass: analyses.rustClass,
    confidence: analyses.confidence,
    unsure: analyses.unsure,
    rustLeaves: analyses.rustLeaves,
    crop: analyses.crop,
    modelVersion: analyses.modelVersion,
    margin: analyses.margin,
    demo: analyses.demo,
    createdAt: analyses.createdAt,
    hasHeatmap: sql<boolean>`${analyses.heatmapPath} is not null`.as('has_heatmap'),
  })
  .from(analyses)
  .as('analysis_facts');
