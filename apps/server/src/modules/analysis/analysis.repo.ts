import type { ContentLanguage, TranslationLanguage } from '@kutu/contract';
import { and, asc, count, desc, eq, getTableColumns, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { analyses, analysisPhotos, educationResources, educationResourceTranslations } from '../../db/schema/index.ts';
import type { FactColumn, FactsPort } from '../../lib/facts-port.ts';
import { fieldFacts, walkFacts } from '../fields/fields.service.ts';
import type { ExpertDecision } from './expert-answer.ts';

export type AnalysisRow = typeof analyses.$inferSelect;
export type NewAnalysisRow = typeof analyses.$inferInsert;
export type PhotoRow = typeof analysisPhotos.$inferSelect;
export type NewPhotoRow = Omit<typeof analysisPhotos.$inferInsert, 'analysisId' | 'position'>;
/** The analysis's answer as a field-level answer rewrites it. */
export type FieldAnswerUpdate = Pick<
  NewAnalysisRow,
  | 'rustClass'
  | 'rustLeaves'
  | 'confidence'
  | 'unsure'
  | 'probabilities'
  | 'leafScore'
  | 'oodScore'
  | 'modelVersion'
  | 'rustShare'
>;
/** A resource, with the language its title and description were read in (English when not said). */
export type ResourceRow = typeof educationResources.$inferSelect & { language?: ContentLanguage };

/**
 * The experts' decisions on analyses, read only: the review module's `decisionFacts` (the review module
 * uses this one, so services.ts hands it in).
 */
export type DecisionFacts = FactsPort<{
  analysisId: FactColumn<number>;
  verdict: FactColumn<ExpertDecision['verdict'], false>;
  note: FactColumn<string, false>;
  severity: FactColumn<NonNullable<ExpertDecision['severity']>, false>;
  reviewedAt: FactColumn<Date, false>;
  revisedAt: FactColumn<Date, false>;
}>;

export function createAnalysisRepo(db: Db, decisions: DecisionFacts) {
  return {
    async insert(row: NewAnalysisRow): Promise<AnalysisRow> {
      const [created] = await db.insert(analyses).values(row).returning();
      return created;
    },

    /** Inserts unless the user already has an analysis with this idempotency key (then undefined). */
    async insertOnce(row: NewAnalysisRow): Promise<AnalysisRow | undefined> {
      const [created] = await db
        .insert(analyses)
        .values(row)
        .onConflictDoNothing({ target: [analyses.userId, analyses.idempotencyKey] })
        .returning();
      return created;
    },

    async findByKey(userId: number, key: string): Promise<AnalysisRow | undefined> {
      const [row] = await db
        .select()
        .from(analyses)
        .where(and(eq(analyses.userId, userId), eq(analyses.idempotencyKey, key)));
      return row;
    },

    async findById(id: number): Promise<AnalysisRow | undefined> {
      const [row] = await db.select().from(analyses).where(eq(analyses.id, id));
      return row;
    },

    /** The experts' decisions on these analyses, by analysis id (only the decided ones). */
    async decisionsFor(ids: number[]): Promise<Map<number, ExpertDecision>> {
      if (ids.length === 0) return new Map();
      const rows = await db
        .select({
          id: decisions.analysisId,
          verdict: decisions.verdict,
          note: decisions.note,
          severity: decisions.severity,
          reviewedAt: decisions.reviewedAt,
          revisedAt: decisions.revisedAt,
        })
        .from(decisions)
        .where(and(inArray(decisions.analysisId, ids), sql`${decisions.reviewedAt} is not null`));
      return new Map(
        rows.flatMap(({ id, verdict, reviewedAt, ...rest }) =>
          verdict && reviewedAt ? [[id, { verdict, reviewedAt, ...rest }] as const] : [],
        ),
      );
    },

    async findByIds(ids: number[]): Promise<AnalysisRow[]> {
      return db.select().from(analyses).where(inArray(analyses.id, ids));
    },

    /** Newest first; ties (same instant) broken by id so pages never overlap. */
    /** The user's analyses, newest first; with `fieldId`, only that field's. */
    async listForUser(
      userId: number,
      window: { limit: number; offset: number },
      fieldId?: number,
    ): Promise<AnalysisRow[]> {
      return db
        .select()
        .from(analyses)
        .where(and(eq(analyses.userId, userId), fieldId === undefined ? undefined : eq(analyses.fieldId, fieldId)))
        .orderBy(desc(analyses.createdAt), desc(analyses.id))
        .limit(window.limit)
        .offset(window.offset);
    },

    /** The photos of these analyses in order, by analysis id (only analyses with more than one have rows). */
    async photosOf(ids: number[]): Promise<Map<number, PhotoRow[]>> {
      const byId = new Map<number, PhotoRow[]>();
      if (ids.length === 0) return byId;
      const rows = await db
        .select()
        .from(analysisPhotos)
        .where(inArray(analysisPhotos.analysisId, ids))
        .orderBy(asc(analysisPhotos.analysisId), asc(analysisPhotos.position));
      for (const r of rows) byId.set(r.analysisId, [...(byId.get(r.analysisId) ?? []), r]);
      return byId;
    },

    async findPhotoByKey(id: number, key: string): Promise<PhotoRow | undefined> {
      const [row] = await db
        .select()
        .from(analysisPhotos)
        .where(and(eq(analysisPhotos.analysisId, id), eq(analysisPhotos.idempotencyKey, key)));
      return row;
    },

    async findPhoto(id: number, position: number): Promise<PhotoRow | undefined> {
      const [row] = await db
        .select()
        .from(analysisPhotos)
        .where(and(eq(analysisPhotos.analysisId, id), eq(analysisPhotos.position, position)));
      return row;
    },

    /**
     * Adds a photo to the analysis and rewrites its answer from all of them, in one transaction with
     * the analysis row locked. The first extra photo also writes the analysis's own photo as position 0.
     * `expectedCount` is the photo count the caller decided on; undefined (nothing written) when
     * another request changed it meanwhile. `combine` turns every photo into the new answer.
     */
    async addPhoto(
      id: number,
      expectedCount: number,
      photo: NewPhotoRow,
      combine: (photos: PhotoRow[]) => FieldAnswerUpdate,
    ): Promise<{ row: AnalysisRow; photos: PhotoRow[] } | undefined> {
      return db.transaction(async (tx) => {
        const [current] = await tx.select().from(analyses).where(eq(analyses.id, id)).for('update');
        if (!current || current.photoCount !== expectedCount) return undefined;
        if (expectedCount === 1) {
          await tx.insert(analysisPhotos).values({
            analysisId: id,
            position: 0,
            imagePath: current.imagePath,
            heatmapPath: current.heatmapPath,
            rustClass: current.rustClass ?? '',
            confidence: current.confidence,
            probabilities: current.probabilities,
            leafScore: current.leafScore,
            oodScore: current.oodScore,
            rustShare: current.rustShare,
            leafPrint: current.leafPrint,
            modelVersion: current.modelVersion,
            createdAt: current.createdAt,
          });
        }
        await tx.insert(analysisPhotos).values({ ...photo, analysisId: id, position: expectedCount });
        const photos = await tx
          .select()
          .from(analysisPhotos)
          .where(eq(analysisPhotos.analysisId, id))
          .orderBy(asc(analysisPhotos.position));
        const [row] = await tx
          .update(analyses)
          .set({ ...combine(photos), photoCount: photos.length })
          .where(eq(analyses.id, id))
          .returning();
        return { row, photos };
      });
    },

    /**
     * The model's severity band against the expert's, counted: reviewed confident rust answers with a stored
     * rust share whose expert said rust and gave a severity. The bands' cut points come from the caller.
     */
    async severityPairs(cuts: {
      moderate: number;
      severe: number;
    }): Promise<{ model: string; expert: string; n: number }[]> {
      // The cuts are inlined (numbers from code, not input): a bound parameter in both select and group by reads as two expressions.
      const at = (v: number) => sql.raw(String(Number(v)));
      const model = sql<string>`case when ${analyses.rustShare} >= ${at(cuts.severe)} then 'severe' when ${analyses.rustShare} >= ${at(cuts.moderate)} then 'moderate' else 'low' end`;
      const rows = await db
        .select({ model, expert: sql<string>`${decisions.severity}`, n: count() })
        .from(decisions)
        .innerJoin(analyses, eq(analyses.id, decisions.analysisId))
        .where(
          and(
            sql`${decisions.reviewedAt} is not null`,
            eq(decisions.verdict, 'common_rust'),
            sql`${decisions.severity} is not null`,
            eq(analyses.outcome, 'diagnosis'),
            eq(analyses.rustClass, 'common_rust'),
            eq(analyses.unsure, false),
            sql`${analyses.rustShare} is not null`,
          ),
        )
        .groupBy(model, decisions.severity);
      return rows.map((r) => ({ ...r, n: Number(r.n) }));
    },

    async countForUser(userId: number, fieldId?: number): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(analyses)
        .where(and(eq(analyses.userId, userId), fieldId === undefined ? undefined : eq(analyses.fieldId, fieldId)));
      return row?.n ?? 0;
    },

    /**
     * The field of each of these analyses (the fields module's facts, read only): its name, and when it was
     * last walked (a rust answer without a recent walk asks for one).
     */
    async fieldsOf(ids: number[]): Promise<Map<number, { id: number; name: string; lastWalkAt: Date | null }>> {
      if (ids.length === 0) return new Map();
      const rows = await db
        .select({
          analysisId: analyses.id,
          id: fieldFacts.id,
          name: fieldFacts.name,
          lastWalkAt: sql<
            Date | string | null
          >`(select max(${walkFacts.walkedAt}) from ${walkFacts} where ${walkFacts.fieldId} = ${fieldFacts.id})`,
        })
        .from(analyses)
        .innerJoin(fieldFacts, eq(fieldFacts.id, analyses.fieldId))
        .where(inArray(analyses.id, ids));
      return new Map(
        rows.map((r) => [
          r.analysisId,
          { id: r.id, name: r.name, lastWalkAt: r.lastWalkAt === null ? null : new Date(r.lastWalkAt) },
        ]),
      );
    },
  };
}

export function createResourcesRepo(db: Db) {
  const filter = (opts: { rustClass?: string; includeRetired: boolean }): SQL | undefined =>
    and(
      opts.rustClass ? eq(educationResources.rustClass, opts.rustClass) : undefined,
      opts.includeRetired ? undefined : isNull(educationResources.retiredAt),
    );
  const order = [asc(educationResources.rustClass), asc(educationResources.position), asc(educationResources.id)];
  const translation = educationResourceTranslations;

  /** Resources with title and description in `language` where translated, else the English ones. */
  const selectIn = (language: ContentLanguage) =>
    db
      .select({
        ...getTableColumns(educationResources),
        title: sql<string>`coalesce(${translation.title}, ${educationResources.title})`,
        description: sql<string>`coalesce(${translation.description}, ${educationResources.description})`,
        language: sql<ContentLanguage>`coalesce(${translation.language}, 'en')`,
      })
      .from(educationResources)
      .leftJoin(
        translation,
        and(eq(translation.resourceId, educationResources.id), eq(translation.language, language)),
      );

  return {
    /** Every resource in use, in display order (a small table: results attach them by class). */
    async listActive(language: ContentLanguage = 'en'): Promise<ResourceRow[]> {
      return selectIn(language)
        .where(isNull(educationResources.retiredAt))
        .orderBy(...order);
    },

    async list(
      opts: { rustClass?: string; includeRetired: boolean },
      window: { limit: number; offset: number },
      language: ContentLanguage = 'en',
    ): Promise<ResourceRow[]> {
      return selectIn(language)
        .where(filter(opts))
        .orderBy(...order)
        .limit(window.limit)
        .offset(window.offset);
    },

    async count(opts: { rustClass?: string; includeRetired: boolean }): Promise<number> {
      const [row] = await db.select({ n: count() }).from(educationResources).where(filter(opts));
      return row?.n ?? 0;
    },

    async findIn(id: number, language: ContentLanguage): Promise<ResourceRow | undefined> {
      const [row] = await selectIn(language).where(eq(educationResources.id, id));
      return row;
    },

    async saveTranslation(
      resourceId: number,
      language: TranslationLanguage,
      text: { title: string; description: string },
    ): Promise<void> {
      await db
        .insert(translation)
        .values({ resourceId, language, ...text })
        .onConflictDoUpdate({ target: [translation.resourceId, translation.language], set: text });
    },

    async deleteTranslation(resourceId: number, language: TranslationLanguage): Promise<void> {
      await db
        .delete(translation)
        .where(and(eq(translation.resourceId, resourceId), eq(translation.language, language)));
    },

    async findById(id: number): Promise<ResourceRow | undefined> {
      const [row] = await db.select().from(educationResources).where(eq(educationResources.id, id));
      return row;
    },

    async insert(row: typeof educationResources.$inferInsert): Promise<ResourceRow> {
      const [created] = await db.insert(educationResources).values(row).returning();
      return created;
    },

    async update(
      id: number,
      values: Partial<typeof educationResources.$inferInsert>,
    ): Promise<ResourceRow | undefined> {
      const [updated] = await db
        .update(educationResources)
        .set(values)
        .where(eq(educationResources.id, id))
        .returning();
      return updated;
    },
  };
}
