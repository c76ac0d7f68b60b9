import path from 'node:path';
import type { Language, ModelVersion, PageQuery, Paginated } from '@kutu/contract';
import type { ModuleDeps, TrainingOptions } from '../../deps.ts';
import { conflict, notFound } from '../../lib/errors.ts';
import { message } from '../../i18n/i18n.ts';
import { pageWindow, toPage } from '../../lib/pagination.ts';
import { createTrainingRepo, type VersionRow } from './training.repo.ts';
import { decisionOut } from './decision.ts';
import { visionTrainer, type Trainer } from '../../adapters/trainer.ts';
import { modelDirOnThisMachine } from './model-versions.ts';

/**
 * Model versions: the list, activation and rollback, and which version every process serves
 * (docs/decisions/0021). The retraining job makes the versions; this service puts one in service.
 */
export function createVersionsService(deps: ModuleDeps, opts: TrainingOptions = {}) {
  const repo = createTrainingRepo(deps.db);
  const { clock, storage, config } = deps;
  const trainer = opts.trainer ?? visionTrainer;
  const modelsRoot = path.join(config.dataDir, 'models');

  const versionOut = (r: VersionRow, language: Language): ModelVersion => ({
    id: r.id,
    version: r.version,
    is_active: r.isActive,
    metrics: r.metrics,
    decision: decisionOut(r.decision, language),
    trained_by: r.trainedBy && r.trainedByName ? { id: r.trainedBy, username: r.trainedByName } : null,
    sample_count: r.sampleCount,
    job_id: r.jobId,
    created_at: r.createdAt.toISOString(),
    activated_at: r.activatedAt?.toISOString() ?? null,
  });

  /** Tells every process which version is active now. */
  async function announceActive() {
    const active = await repo.activeVersion();
    if (active)
      await deps.coordinator.publish({ type: 'model-activated', versionId: active.id, version: active.version });
  }

  /** Loads the active version when this process serves another; one load at a time, in order. */
  let following = Promise.resolve();
  function followActiveModel(onError: (err: unknown) => void = () => {}): Promise<void> {
    following = following
      .then(async () => {
        const active = await repo.activeVersion();
        if (!active || deps.classifier.current().version === active.version) return;
        const dir = await modelDirOnThisMachine(storage, active, modelsRoot);
        if (!dir) throw new Error(`the files of model version ${active.version} are not in storage`);
        await deps.classifier.replace(await trainer.load(dir));
      })
      .catch(onError);
    return following;
  }

  return {
    announceActive,
    followActiveModel,

    async listVersions(query: PageQuery, language: Language): Promise<Paginated<ModelVersion>> {
      const [rows, total] = await Promise.all([repo.listVersions(pageWindow(query)), repo.countVersions()]);
      return toPage(
        rows.map((r) => versionOut(r, language)),
        total,
        query,
      );
    },

    /** Activates (or rolls back to) a stored version and swaps the classifier in service. */
    async activateVersion(id: number, language: Language): Promise<ModelVersion> {
      const row = await repo.findVersion(id);
      if (!row) throw notFound('errors.training.versionNotFound');
      if (!row.isActive) {
        if (await repo.activeJob()) throw conflict('errors.training.waitForRetraining');
        let loaded: Awaited<ReturnType<Trainer['load']>>;
        try {
          const dir = await modelDirOnThisMachine(storage, row, modelsRoot);
          if (!dir) throw new Error('missing');
          loaded = await trainer.load(dir);
        } catch {
          throw conflict(message('errors.training.versionNotLoadable', { version: row.version }));
        }
        await repo.activateVersion(id, clock.now());
        await deps.classifier.replace(loaded);
        await announceActive();
      }
      return versionOut((await repo.findVersion(id))!, language);
    },
  };
}
export type VersionsService = ReturnType<typeof createVersionsService>;
