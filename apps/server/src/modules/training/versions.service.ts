import path from 'node:path';
import type { Language, ModelVersion, PageQuery, Paginated, Role } from '@kutu/contract';
import type { ModuleDeps, TrainingOptions } from '../../deps.ts';
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors.ts';
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

    /**
     * Activates (or rolls back to) a stored version and swaps the classifier in service, recorded with who
     * did it. A version the gate did not activate on its own (docs/decisions/0118) only by an administrator
     * who confirms its field figures.
     */
    async activateVersion(
      id: number,
      language: Language,
      by: { userId: number; role: Role },
      confirmFieldFigures = false,
    ): Promise<ModelVersion> {
      const row = await repo.findVersion(id);
      if (!row) throw notFound('errors.training.versionNotFound');
      const override = row.decision?.accepted === false;
      if (!override && by.role !== 'expert') throw forbidden('errors.roles.experts');
      if (override && by.role !== 'admin') throw forbidden('errors.training.adminActivates');
      if (override && !confirmFieldFigures && !row.isActive) throw badRequest('errors.training.confirmFieldFigures');
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
        const fieldCheck = (row.decision?.field_check as Record<string, unknown> | undefined) ?? null;
        await repo.activateVersion(id, clock.now(), { by: by.userId, override, fieldCheck });
        await deps.classifier.replace(loaded);
        await announceActive();
      }
      return versionOut((await repo.findVersion(id))!, language);
    },
  };
}
export type VersionsService = ReturnType<typeof createVersionsService>;
