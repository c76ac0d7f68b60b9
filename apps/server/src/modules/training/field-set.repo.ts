import { and, count, desc, eq, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { TrainingLabel } from '@kutu/contract';
import type { Db } from '../../db/client.ts';
import { modelVersions, trainingSamples } from '../../db/schema/index.ts';
import type { FactColumn, FactsPort } from '../../lib/facts-port.ts';

/**
 * What training reads of analyses and consents, read only: the analysis module's `sampleSourceFacts` and
 * privacy's `trainingAgreedSql`. The analysis module uses this one (the field's unsure cuts) and privacy
 * reaches it, so services.ts hands them in.
 */
export interface TrainingSources {
  analyses: FactsPort<{
    id: FactColumn<number>;
    userId: FactColumn<number>;
    imagePath: FactColumn<string>;
    outcome: FactColumn<'diagnosis' | 'not_leaf'>;
    rustClass: FactColumn<string, false>;
    confidence: FactColumn<number>;
    modelVersion: FactColumn<string>;
  }>;
  /** "`userId`'s latest choice for training is yes." */
  agreedSql: (userId: SQL) => SQL;
}

/** The sample is an expert's upload, or its analysis's owner last said yes to training. */
const ownerAgreed = ({ analyses: a, agreedSql }: TrainingSources) =>
  or(
    isNull(trainingSamples.sourceAnalysisId),
    agreedSql(sql`(select ${a.userId} from ${a} where ${a.id} = ${trainingSamples.sourceAnalysisId})`),
  );

/** Live samples on one side (held back for the field check or not) whose owner agreed to training. */
const agreedLive = (src: TrainingSources, heldOut: boolean) =>
  and(isNull(trainingSamples.removedAt), eq(trainingSamples.heldOut, heldOut), ownerAgreed(src));

/** Those samples, oldest first, with what a retraining or the field check reads of them. */
function agreedLiveSamples(
  db: Db,
  src: TrainingSources,
  heldOut: boolean,
): Promise<{ id: number; imagePath: string; label: TrainingLabel; sha256: string | null; cropType: string | null }[]> {
  return db
    .select({
      id: trainingSamples.id,
      imagePath: trainingSamples.imagePath,
      label: trainingSamples.label,
      sha256: trainingSamples.sha256,
      cropType: trainingSamples.cropType,
    })
    .from(trainingSamples)
    .where(agreedLive(src, heldOut))
    .orderBy(trainingSamples.id);
}

/** The held-back field photos (docs/decisions/0086): which side a farmer is on, and the photos the field check reads. */
export function createFieldSetRepo(db: Db, src: TrainingSources) {
  const analyses = src.analyses;
  return {
    /**
     * The field check's photos (docs/decisions/0086): live held-back samples whose owner agreed to training,
     * with the crop named and the expert's label.
     */
    heldBackSamples: () => agreedLiveSamples(db, src, true),

    /** The field check's photos counted by crop and label (the same photos as `heldBackSamples`). */
    async heldBackCounts(): Promise<{ cropType: string | null; label: TrainingLabel; n: number }[]> {
      return db
        .select({ cropType: trainingSamples.cropType, label: trainingSamples.label, n: count() })
        .from(trainingSamples)
        .where(agreedLive(src, true))
        .groupBy(trainingSamples.cropType, trainingSamples.label);
    },

    /**
     * The held-back photos made from farmers' analyses the model `version` answered: its top class share (null when it
     * said "not a leaf"), its class and the expert's, by crop, and when it was verified; for the unsure cut
     * (docs/decisions/0119).
     */
    async heldBackAnswers(version: string) {
      return db
        .select({
          cropType: trainingSamples.cropType,
          label: trainingSamples.label,
          outcome: analyses.outcome,
          rustClass: analyses.rustClass,
          confidence: analyses.confidence,
          verifiedAt: trainingSamples.createdAt,
        })
        .from(trainingSamples)
        .innerJoin(analyses, eq(analyses.id, trainingSamples.sourceAnalysisId))
        .where(and(agreedLive(src, true), eq(analyses.modelVersion, version)));
    },

    /** When the model `version` was last activated (null: never, or no such version). */
    async activatedAt(version: string): Promise<Date | null> {
      const [row] = await db
        .select({ at: modelVersions.activatedAt })
        .from(modelVersions)
        .where(eq(modelVersions.version, version))
        .limit(1);
      return row?.at ?? null;
    },

    /**
     * The side a farmer's photos are on: that of any sample already made from their analyses (so one
     * farmer's field is never on both sides, whatever rule made the first), or undefined for a new farmer.
     */
    async farmerSide(farmerId: number): Promise<boolean | undefined> {
      const [row] = await db
        .select({ heldOut: trainingSamples.heldOut })
        .from(trainingSamples)
        .innerJoin(analyses, eq(analyses.id, trainingSamples.sourceAnalysisId))
        .where(eq(analyses.userId, farmerId))
        .orderBy(trainingSamples.id)
        .limit(1);
      return row?.heldOut;
    },

    /**
     * Every live sample a retraining may learn from, oldest first: an expert's own upload, or a photo
     * from an analysis whose owner's latest choice for `training` is yes (docs/decisions/0067-consent-and-erasure.md:
     * photos of before consent was asked stay out until their owner agrees); never a held-back one (0086).
     */
    allLiveSamples: () => agreedLiveSamples(db, src, false),

    /** A farmer's past analysis, for turning it into a labelled sample. */
    async findAnalysis(
      id: number,
    ): Promise<
      { id: number; userId: number; imagePath: string; rustClass: string | null; modelVersion: string } | undefined
    > {
      const [row] = await db
        .select({
          id: analyses.id,
          userId: analyses.userId,
          imagePath: analyses.imagePath,
          rustClass: analyses.rustClass,
          modelVersion: analyses.modelVersion,
        })
        .from(analyses)
        .where(eq(analyses.id, id));
      return row;
    },

    /** The newest model version whose decision holds a field check. */
    async lastCheckedVersion() {
      const [row] = await db
        .select({
          id: modelVersions.id,
          version: modelVersions.version,
          isActive: modelVersions.isActive,
          decision: modelVersions.decision,
          createdAt: modelVersions.createdAt,
        })
        .from(modelVersions)
        .where(sql`${modelVersions.decision} -> 'field_check' is not null`)
        .orderBy(desc(modelVersions.createdAt), desc(modelVersions.id))
        .limit(1);
      return row;
    },
  };
}
