import { DatabaseInUseError } from './db/pglite-lock.ts';
import path from 'node:path';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { defaultModelDir, loadClassifier } from '@kutu/vision';
import { type Config, ConfigError, loadConfig } from './config.ts';
import { openDatabase } from './db/client.ts';
import { systemClock } from './adapters/clock.ts';
import { createMailer } from './adapters/mailer.ts';
import { Outbox } from './adapters/outbox.ts';
import { createSms } from './adapters/sms.ts';
import { createStorage } from './adapters/storage-url.ts';
import { createJobQueue, type JobLogger } from './adapters/jobs.ts';
import { type Coordinator, createMemoryCoordinator, createPgCoordinator } from './adapters/coordinator.ts';
import { buildApp } from './app.ts';
import type { App, TrainingOptions } from './deps.ts';
import { ensureWritableDataDir, EXIT_CONFIG } from './lib/data-dir.ts';
import { makeOwnerOnly, OWNER_UMASK } from './lib/owner-only.ts';
import { startOrphanPhotoSweep } from './lib/orphan-photos.ts';
import { photoOwners } from './ports.ts';
import { errorLogHooks } from './lib/log-errors.ts';
import { requestIdOf } from './adapters/request-context.ts';
import { createClassifierHolder } from './adapters/classifier.ts';
import { activeModelDir } from './modules/training/model-versions.ts';
import { healthRoutes } from './modules/health/health.routes.ts';
import { canonicalMetricsUrl, type OperationsDeps, operationsRoutes } from './modules/operations/operations.routes.ts';
import { startConsultationUpkeep } from './modules/consultations/consultations.jobs.ts';
import { startOutbreakUpkeep } from './modules/outbreak/upkeep.ts';
import { startAdvisorySends, startForecastRuns } from './modules/forecast/forecast.jobs.ts';
import { startFollowUpSweep } from './modules/followup/followup.jobs.ts';
import { startBackupSchedule } from './modules/backup/backup.jobs.ts';
import { startBackupControl } from './modules/backup/control.ts';
import { takeBackup } from './modules/backup/backup.service.ts';
import { finishInterruptedRestore } from './modules/backup/restore.ts';
import { startWeeklyReportSweep } from './modules/extension/extension.jobs.ts';
import { withInstallationSecrets } from './modules/auth/installation-secrets.service.ts';
import { adminOverSocket } from './modules/auth/admin-account.ts';
import { api } from '@kutu/contract';

/**
 * What a process does (docs/decisions/0021):
 * - `all` (`npm start`, JOBS=on): the API and web app, and background jobs; the single-process default.
 * - `web` (JOBS=off): the API and web app only; as many as needed behind a proxy.
 * - `worker` (`npm run worker`): background jobs (retraining) only; HTTP only for health, readiness
 *   and metrics.
 */
export type Role = 'all' | 'web' | 'worker';

export interface StartOptions {
  role?: Role;
  config?: Config;
  /** Retraining settings (tests give a tiny trainer); the product's by default. */
  training?: TrainingOptions;
}

export async function startServer(opts: StartOptions = {}) {
  // Whatever this process writes (uploads, models, backups) is its owner's alone (docs/decisions/0125).
  process.umask(OWNER_UMASK);
  const settings = opts.config ?? configOrExit();
  const role: Role = opts.role ?? (settings.jobs ? 'all' : 'web');
  // A bad DATA_DIR is reported in one line at once: the database and uploads below would hang or fail obscurely.
  await ensureWritableDataDir(settings.dataDir).catch((err: Error) => {
    console.error(`Kutu cannot start: ${err.message}. Set DATA_DIR to a writable directory.`);
    process.exit(EXIT_CONFIG);
  });
  const storage = createStorage(settings.storageUrl, settings.dataDir);
  // A restore stopped half-way is finished (or undone) before the database is opened (modules/backup/restore.ts).
  await finishInterruptedRestore({ databaseUrl: settings.databaseUrl, storage, dataDir: settings.dataDir }, (msg) =>
    console.error(msg),
  ).catch((err: Error) => {
    console.error(`Kutu cannot start: ${err.message}`);
    process.exit(EXIT_CONFIG);
  });
  const database = await openDatabase({
    url: settings.databaseUrl,
    pgliteDir: path.join(settings.dataDir, 'db'),
  }).catch((err: Error) => {
    if (!(err instanceof DatabaseInUseError)) throw err;
    console.error(`Kutu cannot start: ${err.message}`);
    process.exit(EXIT_CONFIG);
  });
  await database.migrate();
  // DATA_DIR 0700 and every file in it 0600, also what an older Kutu (or a copy) left readable;
  // a DATA_DIR this account does not own stops the start, as PostgreSQL refuses such a directory.
  await makeOwnerOnly(settings.dataDir).catch((err: Error) => {
    console.error(`Kutu cannot start: DATA_DIR ${settings.dataDir} cannot be made private: ${err.message}`);
    process.exit(EXIT_CONFIG);
  });
  // Unset signing secrets are the installation's own, never a published default (docs/decisions/0097).
  const config = await withInstallationSecrets(settings, database.db);

  // The adapters are made before the app; their logs go through the app's logger once it exists.
  let log: App['log'] | undefined;
  const logError = (msg: string, err?: unknown) => (log ? log.error({ err }, msg) : console.error(msg, err));
  const modelsRoot = path.join(config.dataDir, 'models');

  // The active version in the database (the committed model is registered first); MODEL_DIR overrides.
  const activeDir = await activeModelDir(database.db, defaultModelDir(), (msg) => console.error(msg), {
    storage,
    modelsRoot,
  });
  const modelDir = config.modelDir ?? activeDir;
  const classifier = createClassifierHolder(await loadClassifier(modelDir));

  let onReconnect = () => {};
  const coordinator: Coordinator = config.databaseUrl
    ? await createPgCoordinator({ url: config.databaseUrl, log: logError, onReconnect: () => onReconnect() })
    : createMemoryCoordinator(logError);

  // The dev outbox keeps messages only where GET /api/dev/outbox/ serves them (docs/decisions/0125).
  const outbox = new Outbox();
  const devOutbox = config.devOutboxOff ? undefined : outbox;
  const adapterLog = { info: (obj: object, msg: string) => log?.info(obj, msg) };
  const jobs = createJobQueue(database, { log: logError, logger: () => log as JobLogger | undefined });
  const app = await buildApp({
    jobs,
    config,
    database,
    clock: systemClock,
    outbox,
    mailer: createMailer({
      smtpUrl: config.mailTransport === 'smtp' ? config.smtpUrl : undefined,
      from: config.mailFrom,
      outbox: devOutbox,
      log: adapterLog,
    }),
    sms: createSms({
      ...config.sms,
      gatewayUrl: config.smsTransport === 'gateway' ? config.sms.gatewayUrl : undefined,
      outbox: devOutbox,
      log: adapterLog,
    }),
    storage,
    classifier,
    coordinator,
    training: opts.training,
  });
  log = app.log;
  // Activations announced while this process could not listen: catch up with the database.
  onReconnect = () => void coordinator.publish({ type: 'model-activated', versionId: 0, version: '' });
  for (const [channel, transport] of [
    ['email', config.mailTransport],
    ['SMS', config.smsTransport],
  ] as const) {
    if (config.isProduction && transport === 'log') app.log.warn(`${channel} is only logged, not sent (log transport)`);
  }
  app.log.info(
    config.devOutboxOff
      ? `the development outbox (${api.devOutbox}) is off: ${config.devOutboxOff}`
      : `the development outbox (${api.devOutbox}) shows the codes and links sent, to this machine only (HOST ${config.host})`,
  );
  app.log.info({ role, modelDir, modelVersion: classifier.current().version, storage: storage.kind }, 'starting');

  // Photo files left without a row by a crash; one sweeper is enough, so only where jobs run.
  const stopOrphanSweep =
    role === 'web'
      ? () => {}
      : startOrphanPhotoSweep({
          db: database.db,
          storage,
          owners: photoOwners,
          log: (msg, err) => (err ? app.log.error({ err }, msg) : app.log.info(msg)),
        });

  // A worker answers only health, readiness and metrics; the full app is built for its job handlers.
  const probes = role === 'worker' ? await probeApp(config, { database, storage, classifier, jobs }) : null;
  const http = probes ?? app;

  // `npm run backup` asks this process for the embedded database's copy (modules/backup/control.ts).
  const stopBackupControl =
    database.kind === 'pglite'
      ? startBackupControl(
          config.dataDir,
          (out) =>
            takeBackup({ database, storage, dataDir: config.dataDir }, out, new Date(), { nice: config.backup.nice }),
          logError,
          { admin: (body) => adminOverSocket(database.db, body) },
        )
      : async () => {};

  let stopUpkeep = () => {};
  let closing = false;
  async function shutdown(signal: string) {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    try {
      // Running jobs are told to stop first; a retraining records that it was stopped.
      stopOrphanSweep();
      stopUpkeep();
      await stopBackupControl();
      await jobs.stop(5000);
      await probes?.close();
      await app.close();
      await coordinator.close();
      await classifier.close();
      await database.close();
      process.exit(0);
    } catch (err) {
      app.log.error({ err }, 'error during shutdown');
      process.exit(1);
    }
  }
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  // Jobs left running by a dead process are marked failed before this one starts working the queues.
  if (role !== 'web') await jobs.startWorkers();
  // Weekly availability top-up and consultation reminders (docs/decisions/0019).
  if (role !== 'web') {
    const log = (msg: string, err: unknown) => app.log.error({ err }, msg);
    const stops = [
      startConsultationUpkeep(jobs, log),
      startOutbreakUpkeep(jobs, log),
      startFollowUpSweep(jobs, log),
      startBackupSchedule(jobs, config.backup.everyHours, log),
      startWeeklyReportSweep(jobs, log),
      // Weather and the week's rust forecast: at start and every WEATHER_EVERY_HOURS (docs/decisions/0100).
      startForecastRuns(jobs, config.weather.everyMs, log),
      // The advisories' send at ADVISORY_SEND_HOUR, less the districts held (docs/decisions/0128).
      startAdvisorySends(jobs, log),
    ];
    stopUpkeep = () => {
      for (const stop of stops) stop();
    };
  }
  await http.listen({ port: config.port, host: config.host });
  app.log.info(
    `Kutu ${role === 'all' ? '' : `${role} `}is listening on ${config.host}:${config.port}, public URL ${config.publicUrl} (database: ${database.kind}, storage: ${storage.kind})`,
  );
  return { app, http, shutdown };
}

/** The settings, or the reason they are wrong in a few lines (no stack trace) and exit status 78. */
function configOrExit(): Config {
  try {
    return loadConfig();
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    console.error(`Kutu cannot start: ${err.message}`);
    process.exit(EXIT_CONFIG);
  }
}

/** The worker's HTTP server: liveness, readiness and metrics, nothing else. */
async function probeApp(config: Config, deps: Omit<OperationsDeps, 'config'>) {
  const app = Fastify({
    logger: config.logLevel === 'silent' ? false : { level: config.logLevel, hooks: errorLogHooks },
    genReqId: requestIdOf,
    rewriteUrl: (req) => canonicalMetricsUrl(req.url ?? '/'),
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  healthRoutes(app, { deps });
  operationsRoutes(app, { deps: { ...deps, config } });
  return app;
}
