import { and, count, desc, eq, gt, inArray, isNull, lt, ne, or, type SQL } from 'drizzle-orm';
import type { TrainingLabel } from '@kutu/contract';
import type { Db } from '../../db/client.ts';
import type { Message } from '../../i18n/i18n.ts';
import { modelActivations, modelVersions, trainingJobs, trainingSamples, users } from '../../db/schema/index.ts';

export type SampleRow = typeof trainingSamples.$inferSelect & { uploaderName: string | null };
export type NewSampleRow = typeof trainingSamples.$inferInsert;
export type JobRow = typeof trainingJobs.$inferSelect & { startedByName: string | null };
export type JobPatch = Partial<Omit<typeof trainingJobs.$inferInsert, 'id'>>;
export type VersionRow = typeof modelVersions.$inferSelect & { trainedByName: string | null };
export type NewVersionRow = typeof modelVersions.$inferInsert;

interface Window {
  limit: number;
  offset: number;
}

/** A unique index refused the row (PostgreSQL 23505), whichever driver reported it. */
export function isUniqueViolation(err: unknown): boolean {
  for (let e = err as { code?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (e.code === '23505') return true;
  }
  return false;
}

const sampleColumns = {
  id: trainingSamples.id,
  uploaderId: trainingSamples.uploaderId,
  imagePath: trainingSamples.imagePath,
  label: trainingSamples.label,
  cropType: trainingSamples.cropType,
  sourceAnalysisId: trainingSamples.sourceAnalysisId,
  sourceModelVersion: trainingSamples.sourceModelVersion,
  sha256: trainingSamples.sha256,
  heldOut: trainingSamples.heldOut,
  removedAt: trainingSamples.removedAt,
  createdAt: trainingSamples.createdAt,
  uploaderName: users.username,
};

export function createTrainingRepo(db: Db) {
  const liveSample = (id: number) => and(eq(trainingSamples.id, id), isNull(trainingSamples.removedAt));
  const sampleFilter = (label?: TrainingLabel): SQL | undefined =>
    and(isNull(trainingSamples.removedAt), label ? eq(trainingSamples.label, label) : undefined);

  return {
    // --- samples ---
    async insertSamples(rows: NewSampleRow[]): Promise<number[]> {
      if (rows.length === 0) return [];
      const created = await db.insert(trainingSamples).values(rows).returning({ id: trainingSamples.id });
      return created.map((r) => r.id);
    },

    async samplesByIds(ids: number[]): Promise<SampleRow[]> {
      if (ids.length === 0) return [];
      return db
        .select(sampleColumns)
        .from(trainingSamples)
        .leftJoin(users, eq(users.id, trainingSamples.uploaderId))
        .where(inArray(trainingSamples.id, ids))
        .orderBy(trainingSamples.id);
    },

    async findSample(id: number): Promise<SampleRow | undefined> {
      const [row] = await db
        .select(sampleColumns)
        .from(trainingSamples)
        .leftJoin(users, eq(users.id, trainingSamples.uploaderId))
        .where(liveSample(id));
      return row;
    },

    /** Newest first, id breaking ties so pages never overlap. */
    async listSamples(label: TrainingLabel | undefined, window: Window): Promise<SampleRow[]> {
      return db
        .select(sampleColumns)
        .from(trainingSamples)
        .leftJoin(users, eq(users.id, trainingSamples.uploaderId))
        .where(sampleFilter(label))
        .orderBy(desc(trainingSamples.createdAt), desc(trainingSamples.id))
        .limit(window.limit)
        .offset(window.offset);
    },

    async countSamples(label?: TrainingLabel): Promise<number> {
      const [row] = await db.select({ n: count() }).from(trainingSamples).where(sampleFilter(label));
      return row?.n ?? 0;
    },

    /** Live samples a retraining may learn from (the held-back ones apart), by label. */
    async countsByLabel(): Promise<Record<string, number>> {
      const rows = await db
        .select({ label: trainingSamples.label, n: count() })
        .from(trainingSamples)
        .where(and(isNull(trainingSamples.removedAt), eq(trainingSamples.heldOut, false)))
        .groupBy(trainingSamples.label);
      return Object.fromEntries(rows.map((r) => [r.label, r.n]));
    },

    /** Live samples added after `since` (all of them when null); held-back ones change no retraining. */
    async countSamplesSince(since: Date | null): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(trainingSamples)
        .where(
          and(
            isNull(trainingSamples.removedAt),
            eq(trainingSamples.heldOut, false),
            since ? gt(trainingSamples.createdAt, since) : undefined,
          ),
        );
      return row?.n ?? 0;
    },

    async relabel(id: number, label: TrainingLabel): Promise<boolean> {
      const r = await db
        .update(trainingSamples)
        .set({ label })
        .where(liveSample(id))
        .returning({ id: trainingSamples.id });
      return r.length > 0;
    },

    async removeSample(id: number, now: Date): Promise<{ imagePath: string } | undefined> {
      const [r] = await db
        .update(trainingSamples)
        .set({ removedAt: now })
        .where(liveSample(id))
        .returning({ imagePath: trainingSamples.imagePath });
      return r;
    },

    async sampleFromAnalysisExists(analysisId: number): Promise<boolean> {
      return (await this.liveSampleOfAnalysis(analysisId)) !== undefined;
    },

    /** The live sample made from an analysis, if any. */
    async liveSampleOfAnalysis(analysisId: number): Promise<number | undefined> {
      const [row] = await db
        .select({ id: trainingSamples.id })
        .from(trainingSamples)
        .where(and(eq(trainingSamples.sourceAnalysisId, analysisId), isNull(trainingSamples.removedAt)));
      return row?.id;
    },

    // --- jobs ---
    /** The queued or running job, if any (the database allows at most one). */
    async activeJob(): Promise<JobRow | undefined> {
      const [row] = await jobQuery(db).where(inArray(trainingJobs.status, ['queued', 'running']));
      return row;
    },

    /** A new queued job; undefined when another is queued or running (unique index). */
    async insertJob(row: { startedBy: number | null; trigger: 'manual' | 'auto'; now: Date }) {
      try {
        const [created] = await db
          .insert(trainingJobs)
          .values({
            startedBy: row.startedBy,
            trigger: row.trigger,
            status: 'queued',
            stage: 'queued',
            createdAt: row.now,
          })
          .returning({ id: trainingJobs.id });
        return created.id;
      } catch (err) {
        if (isUniqueViolation(err)) return undefined;
        throw err;
      }
    },

    async findJob(id: number): Promise<JobRow | undefined> {
      const [row] = await jobQuery(db).where(eq(trainingJobs.id, id));
      return row;
    },

    async listJobs(window: Window): Promise<JobRow[]> {
      return jobQuery(db)
        .orderBy(desc(trainingJobs.createdAt), desc(trainingJobs.id))
        .limit(window.limit)
        .offset(window.offset);
    },

    async countJobs(): Promise<number> {
      const [row] = await db.select({ n: count() }).from(trainingJobs);
      return row?.n ?? 0;
    },

    /** The last retraining that activated its candidate: the samples before it were learnt. */
    async lastSucceededJob(): Promise<{ id: number; createdAt: Date } | undefined> {
      const [row] = await db
        .select({ id: trainingJobs.id, createdAt: trainingJobs.createdAt })
        .from(trainingJobs)
        .where(eq(trainingJobs.status, 'succeeded'))
        .orderBy(desc(trainingJobs.createdAt), desc(trainingJobs.id))
        .limit(1);
      return row;
    },

    async lastJob(): Promise<{ id: number; createdAt: Date } | undefined> {
      const [row] = await db
        .select({ id: trainingJobs.id, createdAt: trainingJobs.createdAt })
        .from(trainingJobs)
        .orderBy(desc(trainingJobs.createdAt), desc(trainingJobs.id))
        .limit(1);
      return row;
    },

    async updateJob(id: number, patch: JobPatch): Promise<void> {
      await db.update(trainingJobs).set(patch).where(eq(trainingJobs.id, id));
    },

    /** queued → running; false if the job is no longer queued (stale delivery, or already handled). */
    async claimJob(id: number, now: Date, queueJobId: string): Promise<boolean> {
      const r = await db
        .update(trainingJobs)
        .set({ status: 'running', stage: 'preparing', startedAt: now, heartbeatAt: now, queueJobId })
        .where(and(eq(trainingJobs.id, id), eq(trainingJobs.status, 'queued')))
        .returning({ id: trainingJobs.id });
      return r.length > 0;
    },

    /** Marks failed the running jobs whose heartbeat is older than `before`; returns them. */
    async failStaleJobs(before: Date, now: Date, error: Message): Promise<{ id: number; startedBy: number | null }[]> {
      return db
        .update(trainingJobs)
        .set({ status: 'failed', stage: 'failed', error, finishedAt: now })
        .where(
          and(
            eq(trainingJobs.status, 'running'),
            or(isNull(trainingJobs.heartbeatAt), lt(trainingJobs.heartbeatAt, before)),
          ),
        )
        .returning({ id: trainingJobs.id, startedBy: trainingJobs.startedBy });
    },

    // --- model versions ---
    async countVersions(): Promise<number> {
      const [row] = await db.select({ n: count() }).from(modelVersions);
      return row?.n ?? 0;
    },

    async activeVersion(): Promise<VersionRow | undefined> {
      const [row] = await versionQuery(db).where(eq(modelVersions.isActive, true));
      return row;
    },

    async findVersion(id: number): Promise<VersionRow | undefined> {
      const [row] = await versionQuery(db).where(eq(modelVersions.id, id));
      return row;
    },

    async listVersions(window: Window): Promise<VersionRow[]> {
      return versionQuery(db)
        .orderBy(desc(modelVersions.createdAt), desc(modelVersions.id))
        .limit(window.limit)
        .offset(window.offset);
    },

    async insertVersion(row: NewVersionRow): Promise<number> {
      const [created] = await db.insert(modelVersions).values(row).returning({ id: modelVersions.id });
      return created.id;
    },

    /** Makes one version the only active one. */
    async activateVersion(
      id: number,
      now: Date,
      audit: { by: number | null; override: boolean; fieldCheck: Record<string, unknown> | null },
    ): Promise<void> {
      await db.transaction(async (tx) => {
        await tx.insert(modelActivations).values({
          versionId: id,
          activatedBy: audit.by,
          override: audit.override,
          fieldCheck: audit.fieldCheck,
          createdAt: now,
        });
        await tx
          .update(modelVersions)
          .set({ isActive: false })
          .where(and(eq(modelVersions.isActive, true), ne(modelVersions.id, id)));
        await tx.update(modelVersions).set({ isActive: true, activatedAt: now }).where(eq(modelVersions.id, id));
      });
    },

    /**
     * Records a finished job and its candidate version in one transaction; an accepted candidate
     * becomes the only active version.
     */
    async finishJobWithVersion(
      jobId: number,
      jobPatch: JobPatch,
      version: NewVersionRow,
      activate: boolean,
      now: Date,
    ): Promise<number> {
      return db.transaction(async (tx) => {
        if (activate) await tx.update(modelVersions).set({ isActive: false }).where(eq(modelVersions.isActive, true));
        const [created] = await tx
          .insert(modelVersions)
          .values({ ...version, isActive: activate, activatedAt: activate ? now : null })
          .returning({ id: modelVersions.id });
        await tx.update(trainingJobs).set(jobPatch).where(eq(trainingJobs.id, jobId));
        return created.id;
      });
    },
  };
}

function jobQuery(db: Db) {
  return db
    .select({
      id: trainingJobs.id,
      startedBy: trainingJobs.startedBy,
      trigger: trainingJobs.trigger,
      status: trainingJobs.status,
      stage: trainingJobs.stage,
      epoch: trainingJobs.epoch,
      epochs: trainingJobs.epochs,
      progress: trainingJobs.progress,
      sampleCount: trainingJobs.sampleCount,
      candidateVersion: trainingJobs.candidateVersion,
      result: trainingJobs.result,
      error: trainingJobs.error,
      queueJobId: trainingJobs.queueJobId,
      heartbeatAt: trainingJobs.heartbeatAt,
      startedAt: trainingJobs.startedAt,
      finishedAt: trainingJobs.finishedAt,
      createdAt: trainingJobs.createdAt,
      startedByName: users.username,
    })
    .from(trainingJobs)
    .leftJoin(users, eq(users.id, trainingJobs.startedBy))
    .$dynamic();
}

function versionQuery(db: Db) {
  return db
    .select({
      id: modelVersions.id,
      version: modelVersions.version,
      path: modelVersions.path,
      metrics: modelVersions.metrics,
      decision: modelVersions.decision,
      isActive: modelVersions.isActive,
      trainedBy: modelVersions.trainedBy,
      sampleCount: modelVersions.sampleCount,
      jobId: modelVersions.jobId,
      createdAt: modelVersions.createdAt,
      activatedAt: modelVersions.activatedAt,
      trainedByName: users.username,
    })
    .from(modelVersions)
    .leftJoin(users, eq(users.id, modelVersions.trainedBy))
    .$dynamic();
}
