import { type AnyColumn, Column, getTableName, inArray, is, or, type SQL, sql } from 'drizzle-orm';
import { QueryBuilder } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.ts';
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

/**
 * An analysis as training reads it (a sample made from it, the held-back photos' answers), read only, as
 * `analysisFacts`. The training module is one this module uses (the field's unsure cuts), so services.ts
 * hands it in.
 */
export const sampleSourceFacts = new QueryBuilder()
  .select({
    id: analyses.id,
    userId: analyses.userId,
    imagePath: analyses.imagePath,
    outcome: analyses.outcome,
    rustClass: analyses.rustClass,
    confidence: analyses.confidence,
    modelVersion: analyses.modelVersion,
  })
  .from(analyses)
  .as('sample_source_facts');

/**
 * A diagnosis as the follow-ups compare and list it (the first answer beside the follow-up photo's),
 * read only, as `analysisFacts`. The follow-up module is one this module uses, so services.ts hands it in.
 */
export const diagnosisFacts = new QueryBuilder()
  .select({
    id: analyses.id,
    crop: analyses.crop,
    createdAt: analyses.createdAt,
    outcome: analyses.outcome,
    rustClass: analyses.rustClass,
    unsure: analyses.unsure,
    confidence: analyses.confidence,
    probabilities: analyses.probabilities,
    rustShare: analyses.rustShare,
  })
  .from(analyses)
  .as('diagnosis_facts');

/**
 * The outer query's column, named with its table: in a query on one table drizzle writes a column bare
 * ("id"), which inside these subqueries on analyses would be the photo's own id, not the field's.
 */
const outer = (c: AnyColumn | SQL): SQL | AnyColumn =>
  is(c, Column) ? sql`${sql.identifier(getTableName(c.table))}.${sql.identifier(c.name)}` : c;

/**
 * A field's photos as the fields module's queries ask about them, read only: SQL conditions and counts
 * inside that module's own queries. The fields module is one this module uses (a photo goes to a field),
 * so services.ts hands these in as its `FieldPhotos` port.
 */
export const fieldPhotoSql = {
  /** "Field `fieldId` has a photo." */
  any: (fieldId: AnyColumn | SQL): SQL =>
    sql`exists (select 1 from ${analyses} where ${analyses.fieldId} = ${outer(fieldId)})`,
  /** The number of photos of field `fieldId`. */
  count: (fieldId: AnyColumn | SQL): SQL<number> =>
    sql<number>`(select count(*) from ${analyses} where ${analyses.fieldId} = ${outer(fieldId)})`.mapWith(Number),
  /** "Analysis `id` is `userId`'s photo of field `fieldId`." */
  of: (id: AnyColumn | SQL, userId: number, fieldId: number): SQL =>
    sql`exists (select 1 from ${analyses} where ${analyses.id} = ${id} and ${analyses.userId} = ${userId} and ${analyses.fieldId} = ${fieldId})`,
};

/**
 * An analysis as the outbreak watch's set-based SQL counts it, read only: a parenthesised subquery for
 * `from ${analysisCaseSql} a` (the same plan as the table). The outbreak module is one this module uses, so
 * services.ts hands it in.
 */
export const analysisCaseSql: SQL = sql`(select ${analyses.id}, ${analyses.userId}, ${analyses.crop}, ${analyses.createdAt},
  ${analyses.demo}, ${analyses.outcome}, ${analyses.rustClass}, ${analyses.unsure} from ${analyses})`;

/** Which of these upload keys an analysis refers to, as its photo or its heatmap (the orphan photo sweep's). */
export async function analysisPhotoKeys(db: Db, keys: string[]): Promise<string[]> {
  return (
    await db
      .select({ photo: analyses.imagePath, heatmap: analyses.heatmapPath })
      .from(analyses)
      .where(or(inArray(analyses.imagePath, keys), inArray(analyses.heatmapPath, keys)))
  ).flatMap((r) => [r.photo, r.heatmap ?? '']);
}
