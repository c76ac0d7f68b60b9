import fs from 'node:fs';
import path from 'node:path';
import type { EvalMetrics, Language, PageQuery, Paginated, TrainingJob, TrainingLabel } from '@kutu/contract';
import type { ModuleDeps, TrainingOptions } from '../../deps.ts';
import { AppError, conflict, notFound } from '../../lib/errors.ts';
import { type Message, message, render, renderStored } from '../../i18n/i18n.ts';
import { pageWindow, toPage } from '../../lib/pagination.ts';
import { sweepWorkDir } from '@kutu/vision';
import { createTrainingRepo, type JobRow } from './training.repo.ts';
import { decisionOut, fieldGateRule, type StoredDecision } from './decision.ts';
import { createFieldCheck } from './field-check.ts';
import { createFieldSetRepo, type TrainingSources } from './field-set.repo.ts';
import type { FieldCuts } from './field-cuts.service.ts';
import { visionTrainer, type TrainerProgress } from '../../adapters/trainer.ts';
import { publishModelFiles } from './model-versions.ts';
import type { VersionsService } from './versions.service.ts';

export const TRAINING_QUEUE = 'model-training';
/** A running job refreshes its heartbeat this often; one silent for STALE_AFTER_MS was left by a dead process. */
export const HEARTBEAT_MS = 10_000;
export const STALE_AFTER_MS = 60_000;

/** A retraining failure the expert is told in their language; any other error is shown with its own text. */
class RetrainingFailed extends Error {
  readonly text: Message;
  constructor(text: Message) {
    super(render('en', text));
    this.text = text;
  }
}

/** Where a failure's technical details go: the server log, never the expert's screen. */
export interface TrainingLog {
  error(obj: Record<string, unknown>, msg: string): void;
  info?(obj: Record<string, unknown>, msg: string): void;
}

/**
 * What the expert reads when a retraining fails for a reason that is not the app's own (the trainer, the
 * disk, the system): plain words in their language. The error itself, with its stack, goes to the log.
 */
export function failureMessage(err: unknown, jobId: number): Message {
  const e = err as NodeJS.ErrnoException | undefined;
  const text = e instanceof Error ? `${e.message}` : String(err);
  if (e?.code === 'ENOSPC' || /no space left/i.test(text)) return message('training.failed.diskFull', { job: jobId });
  if (e?.code === 'ERR_WORKER_OUT_OF_MEMORY' || e?.code === 'ENOMEM' || /out of memory|bad_alloc/i.test(text)) {
    return message('training.failed.outOfMemory', { job: jobId });
  }
  return message('training.failed.internal', { job: jobId });
}

/**
 * The retraining job: starting one (by an expert, or by itself once enough samples arrived), running it
 * in a worker (train, evaluate, decide, store the version, activate it when it is not worse), and
 * cleaning up after runs a dead process left behind.
 */
export function createRetrainingService(
  deps: ModuleDeps,
  versions: Pick<VersionsService, 'announceActive'>,
  cuts: Pick<FieldCuts, 'figures'>,
  /** Analyses and consents as training reads them: their owners', handed in. */
  sources: TrainingSources,
  opts: TrainingOptions = {},
  log?: TrainingLog,
) {
  const repo = createTrainingRepo(deps.db);
  const fieldSet = createFieldSetRepo(deps.db, sources);
  const { clock, storage, notifications, config } = deps;
  const decide = opts.decide ?? fieldGateRule;
  const trainer = opts.trainer ?? visionTrainer;
  const field = createFieldCheck(deps, trainer, cuts, sources);
  const modelsRoot = path.join(config.dataDir, 'models');
  /** The trainer's work in progress (feature caches, scratch folders): swept at start, so a crashed job's leftovers do not fill the disk (docs/decisions/0029). */
  const workDir = path.join(config.dataDir, 'tmp');

  /** Removes a candidate's unfinished directories: `.tmp-<version>` and the trainer's `.tmp-<version>.partial-<pid>`. */
  function removeUnfinished(version: string) {
    if (!fs.existsSync(modelsRoot)) return;
    for (const name of fs.readdirSync(modelsRoot)) {
      if (name === `.tmp-${version}` || name.startsWith(`.tmp-${version}.`)) {
        fs.rmSync(path.join(modelsRoot, name), { recursive: true, force: true });
      }
    }
  }

  const jobOut = (r: JobRow, language: Language): TrainingJob => {
    const end = r.finishedAt ?? (r.status === 'running' ? clock.now() : null);
    return {
      id: r.id,
      trigger: r.trigger,
      status: r.status,
      stage: r.stage,
      epoch: r.epoch,
      epochs: r.epochs,
      progress: r.progress ?? null,
      sample_count: r.sampleCount,
      candidate_version: r.candidateVersion,
      result: decisionOut(r.result, language),
      error: r.error === null ? null : renderStored(language, r.error),
      started_by: r.startedBy && r.startedByName ? { id: r.startedBy, username: r.startedByName } : null,
      created_at: r.createdAt.toISOString(),
      started_at: r.startedAt?.toISOString() ?? null,
      finished_at: r.finishedAt?.toISOString() ?? null,
      elapsed_seconds:
        r.startedAt && end ? Math.max(0, Math.round((end.getTime() - r.startedAt.getTime()) / 100) / 10) : null,
    };
  };
  // --- jobs: start ---
  async function enqueue(startedBy: number | null, trigger: 'manual' | 'auto'): Promise<number | undefined> {
    const id = await repo.insertJob({ startedBy, trigger, now: clock.now() });
    if (id === undefined) return undefined;
    try {
      const queueJobId = await deps.jobs.send(TRAINING_QUEUE, { jobId: id });
      await repo.updateJob(id, { queueJobId });
    } catch (err) {
      await repo.updateJob(id, {
        status: 'failed',
        stage: 'failed',
        error: message('training.failed.notQueued'),
        finishedAt: clock.now(),
      });
      throw err;
    }
    return id;
  }

  /** Starts a retraining by itself once enough samples arrived since the last one. */
  async function startIfDue(uploaderId: number): Promise<number | null> {
    const threshold = config.retrainAfterSamples;
    if (threshold <= 0) return null;
    const last = await repo.lastJob();
    if ((await repo.countSamplesSince(last?.createdAt ?? null)) < threshold) return null;
    if (await repo.activeJob()) return null;
    return (await enqueue(uploaderId, 'auto')) ?? null;
  }

  // --- the job itself ---
  /** `error` is the job's record, `note` the expert's notification; both are read in the reader's language. */
  async function fail(
    job: JobRow,
    error: Message,
    note = message('notifications.retrainingFailed', { job: job.id, error }),
  ) {
    await repo.updateJob(job.id, { status: 'failed', stage: 'failed', error, finishedAt: clock.now() });
    if (job.startedBy) {
      await notifications.notify(job.startedBy, 'training_completed', note, {
        job_id: job.id,
        outcome: 'failed',
        error: render('en', error),
      });
    }
  }

  async function runJob(jobId: number, queueJobId: string, signal: AbortSignal): Promise<void> {
    const claimed = await repo.claimJob(jobId, clock.now(), queueJobId);
    if (!claimed) return; // handled already, or failed by recovery
    const job = (await repo.findJob(jobId))!;
    const heartbeat = setInterval(() => {
      void repo.updateJob(jobId, { heartbeatAt: clock.now() }).catch(() => {});
    }, HEARTBEAT_MS);
    heartbeat.unref();
    const version = versionName(clock.now(), jobId);
    const tmpDir = path.join(modelsRoot, `.tmp-${version}`);
    const finalDir = path.join(modelsRoot, version);
    // Samples as files for the trainer: on this disk already, or downloaded from shared storage.
    const scratch = path.join(modelsRoot, `.tmp-${version}.samples`);
    try {
      const active = await repo.activeVersion();
      if (!active) throw new RetrainingFailed(message('training.failed.noActiveModel'));
      const evalSet = await trainer.loadEvalSet(config.training.evalSet, config.training.baseDir);
      const heldBack = await field.gather(scratch);
      const evalHashes = new Set([...evalSet.items.map((i) => i.sha256), ...heldBack.hashes]);
      const samples: { label: TrainingLabel; file: string; crop: string | null }[] = [];
      for (const s of await fieldSet.allLiveSamples()) {
        if (s.sha256 && evalHashes.has(s.sha256)) continue;
        const file = await storage.localCopy(s.imagePath, scratch);
        if (file) samples.push({ label: s.label, file, crop: s.cropType });
      }
      const baseDirs = fs.existsSync(config.training.baseDir) ? [config.training.baseDir] : [];
      if (baseDirs.length === 0 && samples.length === 0) {
        throw new RetrainingFailed(message('training.failed.noImages'));
      }
      await repo.updateJob(jobId, { sampleCount: samples.length, candidateVersion: version, stage: 'training' });

      let lastWrite = 0;
      let last: { stage: string; epoch: number | null } = { stage: 'training', epoch: null };
      // Progress writes run one after another, and all of them before the job's next step is recorded.
      let progressWrites = Promise.resolve();
      const onProgress = (p: TrainerProgress) => {
        const now = Date.now();
        const stage = trainerStages[p.stage] ?? p.stage;
        const epoch = p.epoch ?? last.epoch;
        // Epoch and stage changes always land; chatter in between at most once a second.
        if (stage === last.stage && epoch === last.epoch && now - lastWrite < 1000) return;
        lastWrite = now;
        last = { stage, epoch };
        const patch = {
          stage,
          epoch,
          ...(p.epochs ? { epochs: p.epochs } : {}),
          progress: p.detail,
          heartbeatAt: clock.now(),
        };
        progressWrites = progressWrites.then(() => repo.updateJob(jobId, patch)).catch(() => {});
      };
      fs.rmSync(tmpDir, { recursive: true, force: true });
      let trained: { metrics?: EvalMetrics };
      try {
        trained = await trainer.train({
          baseDirs,
          extraSamples: samples.map((s) => ({ path: s.file, label: s.label, crop: s.crop })),
          initFrom: active.path,
          outDir: tmpDir,
          version,
          epochs: config.training.epochs,
          evalSet,
          card: {
            retraining: {
              job_id: jobId,
              fine_tuned_from: active.version,
              expert_samples: samples.length,
              base_dirs: baseDirs,
              eval_set: evalSet.name,
            },
          },
          onProgress,
          signal,
          workDir,
        });
      } finally {
        await progressWrites;
      }
      signal.throwIfAborted();

      await repo.updateJob(jobId, { stage: 'evaluating', heartbeatAt: clock.now() });
      const candidate = trained.metrics ?? (await trainer.evaluate(tmpDir, evalSet));
      const current = await trainer.evaluate(active.path, evalSet);
      // Today's rule on the fixed set, and the held-back field photos of each crop (docs/decisions/0086).
      const fieldCheck = await field.check(heldBack, evalSet, tmpDir, active.path);
      signal.throwIfAborted();
      const verdict = decide(candidate, current, fieldCheck);
      const decision: StoredDecision = {
        ...verdict,
        candidate,
        active: current,
        active_version: active.version,
        eval_set: evalSet.name,
        field_check: fieldCheck,
      };
      field.recordOnCard(tmpDir, fieldCheck);

      // Files first, complete, then the rename: a version directory is never half-written.
      fs.renameSync(tmpDir, finalDir);
      // Other machines load an activated version from shared storage; it is there before anyone hears of it.
      await publishModelFiles(storage, finalDir, version);
      const loaded = verdict.accepted ? await trainer.load(finalDir) : null;
      const now = clock.now();
      const status = verdict.accepted ? 'succeeded' : 'rejected';
      try {
        await repo.finishJobWithVersion(
          jobId,
          { status, stage: status, result: decision, finishedAt: now, heartbeatAt: now },
          {
            version,
            path: finalDir,
            metrics: { ...candidate, eval_set: evalSet.name },
            decision,
            trainedBy: job.startedBy,
            sampleCount: samples.length,
            jobId,
          },
          verdict.accepted,
          now,
        );
      } catch (err) {
        await loaded?.close();
        throw err;
      }
      if (loaded) {
        await deps.classifier.replace(loaded);
        await versions.announceActive();
      }
      if (job.startedBy) {
        const finished = message(
          verdict.accepted ? 'notifications.retrainingActivated' : 'notifications.retrainingNotActivated',
          { job: jobId, version, reason: verdict.reason },
        );
        await notifications.notify(job.startedBy, 'training_completed', finished, {
          job_id: jobId,
          outcome: status,
          version,
          candidate,
          active: current,
        });
      }
    } catch (err) {
      removeUnfinished(version);
      if (signal.aborted) {
        await fail(
          job,
          message('training.failed.serverStopped'),
          message('notifications.retrainingInterrupted', { job: job.id }),
        );
      } else if (err instanceof RetrainingFailed) {
        await fail(job, err.text);
      } else {
        // The trainer's or the system's own words (a stack trace, say) are for whoever runs the server:
        // the log has them; the expert reads what happened in plain words. The samples stay counted as new.
        log?.error({ err, jobId }, 'retraining failed');
        await fail(job, failureMessage(err, jobId));
      }
    } finally {
      clearInterval(heartbeat);
      fs.rmSync(scratch, { recursive: true, force: true });
    }
  }

  return {
    async startJob(expertId: number, language: Language): Promise<TrainingJob> {
      if (!(await repo.activeVersion())) {
        throw new AppError('SERVICE_UNAVAILABLE', 'errors.training.noActiveModel', 503);
      }
      const id = await enqueue(expertId, 'manual');
      if (id === undefined) throw conflict('errors.training.alreadyRunning');
      return jobOut((await repo.findJob(id))!, language);
    },

    async listJobs(query: PageQuery, language: Language): Promise<Paginated<TrainingJob>> {
      const [rows, total] = await Promise.all([repo.listJobs(pageWindow(query)), repo.countJobs()]);
      return toPage(
        rows.map((r) => jobOut(r, language)),
        total,
        query,
      );
    },

    async getJob(id: number, language: Language): Promise<TrainingJob> {
      const row = await repo.findJob(id);
      if (!row) throw notFound('errors.training.jobNotFound');
      return jobOut(row, language);
    },

    runJob,
    startIfDue,
    /** The held-back field photos by crop and class, and the last field check. */
    fieldSet: () => field.status(),

    /** Removes what killed retraining runs of this machine left in DATA_DIR/tmp; call before any job runs. */
    async sweepWorkDir(): Promise<string[]> {
      const removed = await sweepWorkDir(workDir);
      if (removed.length) log?.info?.({ removed }, 'removed the work of interrupted retraining runs');
      return removed;
    },

    /**
     * Jobs left 'running' by a process that died (no heartbeat since `staleAfterMs`) become failed,
     * their queue entries are cancelled and unfinished model directories are removed.
     */
    async recoverStaleJobs(staleAfterMs = STALE_AFTER_MS): Promise<number[]> {
      const now = clock.now();
      const stale = await repo.failStaleJobs(
        new Date(now.getTime() - staleAfterMs),
        now,
        message('training.failed.serverStoppedUnchanged'),
      );
      for (const job of stale) {
        const row = await repo.findJob(job.id);
        if (row?.queueJobId) await deps.jobs.cancel(TRAINING_QUEUE, row.queueJobId);
        if (row?.candidateVersion) removeUnfinished(row.candidateVersion);
        if (job.startedBy) {
          await notifications.notify(
            job.startedBy,
            'training_completed',
            message('notifications.retrainingInterrupted', { job: job.id }),
            { job_id: job.id, outcome: 'failed' },
          );
        }
      }
      return stale.map((j) => j.id);
    },
  };
}
export type RetrainingService = ReturnType<typeof createRetrainingService>;

/** The trainer's stage names as a job shows them. */
const trainerStages: Record<string, string> = {
  prepare: 'preparing',
  train: 'training',
  export: 'exporting',
  evaluate: 'evaluating',
  done: 'evaluating',
};

/** `v20260521-101500-j7`: sortable, unique per job. */
function versionName(now: Date, jobId: number): string {
  const iso = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `v${iso}-j${jobId}`;
}
