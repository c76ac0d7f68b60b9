import { createHash } from 'node:crypto';
import path from 'node:path';
import type { PageQuery, Paginated, SampleCounts, TrainingLabel, TrainingSample } from '@kutu/contract';
import type { ModuleDeps } from '../../deps.ts';
import { AppError, conflict, notFound } from '../../lib/errors.ts';
import { message } from '../../i18n/i18n.ts';
import { photoForStorage, type UploadedImage } from '../../lib/image-upload.ts';
import { pageWindow, toPage } from '../../lib/pagination.ts';
import { holdsOutFarmer } from '@kutu/vision';
import { createTrainingRepo, type SampleRow } from './training.repo.ts';
import { createFieldSetRepo, type TrainingSources } from './field-set.repo.ts';
import type { RetrainingService } from './retraining.service.ts';

/** Samples and training jobs as other modules' queries count them (the dashboard). */
export { jobFacts, sampleFacts } from './facts.repo.ts';
/** Which upload keys a training sample refers to (the orphan photo sweep's `PhotoOwner`, through ports.ts). */
export { samplePhotoKeys } from './facts.repo.ts';

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/**
 * Training samples: labelled photos experts upload or make from a farmer's analysis, their list,
 * relabelling and removal. Enough new samples start a retraining by themselves.
 */
export function createSamplesService(
  deps: ModuleDeps,
  retraining: Pick<RetrainingService, 'startIfDue'>,
  /** Analyses and consents as training reads them: their owners', handed in. */
  sources: TrainingSources,
) {
  const repo = createTrainingRepo(deps.db);
  const fieldSet = createFieldSetRepo(deps.db, sources);
  const { clock, storage, config } = deps;

  const sampleOut = (r: SampleRow): TrainingSample => ({
    id: r.id,
    label: r.label,
    crop_type: r.cropType,
    uploader: r.uploaderId !== null && r.uploaderName ? { id: r.uploaderId, username: r.uploaderName } : null,
    source_analysis_id: r.sourceAnalysisId,
    source_model_version: r.sourceModelVersion,
    held_out: r.heldOut,
    image_url: `/api/training-samples/${r.id}/image/`,
    created_at: r.createdAt.toISOString(),
  });
  async function storeSample(
    uploaderId: number,
    data: Buffer,
    extension: string,
    label: TrainingLabel,
    cropType: string | null,
    source: { analysisId: number; modelVersion: string; heldOut: boolean } | null,
    /** The hash that keeps evaluation images out of training: of the bytes as uploaded. */
    contentHash = sha256(data),
  ) {
    const imagePath = await storage.put('training', data, extension);
    return {
      uploaderId,
      imagePath,
      label,
      cropType,
      sourceAnalysisId: source?.analysisId ?? null,
      sourceModelVersion: source?.modelVersion ?? null,
      heldOut: source?.heldOut ?? false,
      sha256: contentHash,
      createdAt: clock.now(),
    };
  }

  return {
    async uploadSamples(
      uploaderId: number,
      images: UploadedImage[],
      fields: { label: TrainingLabel; crop_type?: string },
    ) {
      // Stored without metadata (GPS, camera) like every photo; experts download these.
      const photos = await deps.decodeLimiter.run(uploaderId, async () => {
        const out = [];
        for (const img of images) out.push(await photoForStorage(img));
        return out;
      });
      const rows = [];
      for (const [i, photo] of photos.entries()) {
        rows.push(
          await storeSample(
            uploaderId,
            photo.data,
            photo.ext,
            fields.label,
            fields.crop_type ?? null,
            null,
            sha256(images[i].buffer),
          ),
        );
      }
      let ids: number[];
      try {
        ids = await repo.insertSamples(rows);
      } catch (err) {
        await Promise.all(rows.map((r) => storage.remove(r.imagePath)));
        throw err;
      }
      const jobId = await retraining.startIfDue(uploaderId);
      return {
        message: message('success.training.submitted'),
        samples: (await repo.samplesByIds(ids)).map(sampleOut),
        job_id: jobId,
      };
    },

    /**
     * A labelled sample from a farmer's analysis, with its provenance (analysis, expert, model
     * version, time). `cropType` is the crop the farmer named, when known. Held back from training for
     * the field check when its farmer is (docs/decisions/0086): the side of their earlier samples, else
     * one farmer in five.
     */
    async fromAnalysis(expertId: number, analysisId: number, label: TrainingLabel, cropType: string | null = null) {
      const analysis = await fieldSet.findAnalysis(analysisId);
      if (!analysis) throw notFound('errors.analysis.notFound');
      if (await repo.sampleFromAnalysisExists(analysisId)) {
        throw conflict('errors.training.alreadySample');
      }
      let data: Buffer;
      try {
        data = await storage.get(analysis.imagePath);
      } catch {
        throw new AppError('NOT_FOUND', 'errors.training.analysisImageGone', 404);
      }
      const extension = path.extname(analysis.imagePath).slice(1) || 'jpg';
      const heldOut = (await fieldSet.farmerSide(analysis.userId)) ?? holdsOutFarmer(analysis.userId);
      const row = await storeSample(expertId, data, extension, label, cropType, {
        analysisId,
        modelVersion: analysis.modelVersion,
        heldOut,
      });
      const [id] = await repo.insertSamples([row]);
      // A verified held-back photo may move its crop's learnt unsure cut (docs/decisions/0119).
      if (heldOut) await deps.lists.changed('field-cut');
      const jobId = await retraining.startIfDue(expertId);
      return {
        message: message('success.training.submitted'),
        samples: (await repo.samplesByIds([id])).map(sampleOut),
        job_id: jobId,
      };
    },

    /** The id of the live sample made from an analysis, or null. */
    async sampleOfAnalysis(analysisId: number): Promise<number | null> {
      return (await repo.liveSampleOfAnalysis(analysisId)) ?? null;
    },

    async listSamples(query: PageQuery & { label?: TrainingLabel }): Promise<Paginated<TrainingSample>> {
      const [rows, total] = await Promise.all([
        repo.listSamples(query.label, pageWindow(query)),
        repo.countSamples(query.label),
      ]);
      return toPage(rows.map(sampleOut), total, query);
    },

    async sampleImage(id: number) {
      const row = await repo.findSample(id);
      if (!row) throw notFound('errors.training.sampleNotFound');
      const { body, size } = await storage.stream(row.imagePath).catch(() => {
        throw notFound('errors.training.sampleImageGone');
      });
      return { data: body, size, type: row.imagePath.endsWith('.png') ? 'image/png' : 'image/jpeg' };
    },

    async relabel(id: number, label: TrainingLabel): Promise<TrainingSample> {
      if (!(await repo.relabel(id, label))) throw notFound('errors.training.sampleNotFound');
      await deps.lists.changed('field-cut');
      return sampleOut((await repo.findSample(id))!);
    },

    /** Removed samples stop being trained on; the file goes too (versions already trained keep what they learnt). */
    async remove(id: number): Promise<void> {
      const removed = await repo.removeSample(id, clock.now());
      if (!removed) throw notFound('errors.training.sampleNotFound');
      await deps.lists.changed('field-cut');
      await storage.remove(removed.imagePath);
    },

    async counts(): Promise<SampleCounts> {
      // Only a retraining that activated a model has learnt from the samples: failed and refused runs
      // leave them counted as new.
      const [byLabel, last, heldBack] = await Promise.all([
        repo.countsByLabel(),
        repo.lastSucceededJob(),
        fieldSet.heldBackCounts(),
      ]);
      const common_rust = byLabel.common_rust ?? 0;
      const healthy = byLabel.healthy ?? 0;
      const other_disease = byLabel.other_disease ?? 0;
      return {
        common_rust,
        healthy,
        other_disease,
        total: common_rust + healthy + other_disease,
        held_back: heldBack.reduce((sum, r) => sum + r.n, 0),
        new_since_last_job: await repo.countSamplesSince(last?.createdAt ?? null),
        retrain_after: config.retrainAfterSamples,
      };
    },
  };
}
export type SamplesService = ReturnType<typeof createSamplesService>;
