import type { App } from '../../deps.ts';
import { STALE_AFTER_MS, TRAINING_QUEUE, type RetrainingService } from './retraining.service.ts';
import type { RouteContext } from '../../route-context.ts';
import type { VersionsService } from './versions.service.ts';

/** Retraining may take hours on a small CPU; the queue's heartbeat notices a dead worker far sooner. */
const JOB_EXPIRE_SECONDS = 12 * 60 * 60;

/**
 * The retraining job's queue handler, the stale-job check, and following the model another process
 * activated. Registered by every process; only a process that runs workers takes jobs.
 */
export function trainingJobs(
  app: App,
  {
    deps,
    services: { retraining, versions },
  }: RouteContext<{ retraining: RetrainingService; versions: VersionsService }>,
) {
  // Another process activated a version (a worker's retraining, a rollback): serve it here too.
  if (!deps.config.modelDir) {
    deps.coordinator.on('model-activated', () => {
      void versions.followActiveModel((err) => app.log.error({ err }, 'could not load the newly activated model'));
    });
  }

  const staleAfterMs = deps.training?.staleAfterMs ?? STALE_AFTER_MS;
  let staleCheck: NodeJS.Timeout | undefined;
  app.addHook('onClose', async () => clearInterval(staleCheck));
  deps.jobs.handle<{ jobId: number }>(
    TRAINING_QUEUE,
    (data, ctx) => retraining.runJob(data.jobId, ctx.id, ctx.signal),
    {
      expireInSeconds: JOB_EXPIRE_SECONDS,
      heartbeatSeconds: 30,
      retryLimit: 0,
      // An embedded database belongs to one process, so every 'running' job there was left by a dead one.
      onWorkerStart: async () => {
        // Before any job runs here: what a killed run of this machine left in DATA_DIR/tmp goes.
        await retraining.sweepWorkDir();
        await retraining.recoverStaleJobs(deps.database.kind === 'pglite' ? 0 : staleAfterMs);
        // On PostgreSQL another worker may die at any time: its job is failed once its heartbeat is stale.
        if (deps.database.kind === 'pglite') return;
        staleCheck = setInterval(() => {
          retraining.recoverStaleJobs(staleAfterMs).catch((err) => app.log.error({ err }, 'stale job recovery failed'));
        }, staleAfterMs / 2);
        staleCheck.unref();
      },
    },
  );
}
