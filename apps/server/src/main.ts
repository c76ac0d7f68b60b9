import path from 'node:path';
import { loadConfig } from './config.ts';
import { openDatabase } from './db/client.ts';
import { systemClock } from './adapters/clock.ts';
import { createMailer } from './adapters/mailer.ts';
import { Outbox } from './adapters/outbox.ts';
import { createSms } from './adapters/sms.ts';
import { createLocalStorage } from './adapters/storage.ts';
import { createJobQueue } from './adapters/jobs.ts';
import { buildApp } from './app.ts';
import { ensureWritableDataDir, EXIT_CONFIG } from './lib/data-dir.ts';
import { startOrphanPhotoSweep } from './lib/orphan-photos.ts';
import { defaultModelDir, loadClassifier } from '@kutu/vision';
import { createClassifierHolder } from './modules/analysis/classifier-holder.ts';
import { activeModelDir } from './modules/training/model-versions.ts';
import { startConsultationUpkeep } from './modules/consultations/upkeep.ts';

const config = loadConfig();
// A bad DATA_DIR is reported in one line at once: the database and uploads below would hang or fail obscurely.
await ensureWritableDataDir(config.dataDir).catch((err: Error) => {
  console.error(`Kutu cannot start: ${err.message}. Set DATA_DIR to a writable directory.`);
  process.exit(EXIT_CONFIG);
});
const database = await openDatabase({ url: config.databaseUrl, pgliteDir: path.join(config.dataDir, 'db') });
await database.migrate();

// The active version in the database (the committed model is registered first); MODEL_DIR overrides.
const activeDir = await activeModelDir(database.db, defaultModelDir(), (msg) => console.error(msg));
const modelDir = config.modelDir ?? activeDir;
const classifier = createClassifierHolder(await loadClassifier(modelDir));

const outbox = new Outbox();
// The adapters are made before the app; their log transports write through the app's logger.
const adapterLog = { info: (obj: object, msg: string) => app.log.info(obj, msg) };
const storage = createLocalStorage(path.join(config.dataDir, 'uploads'));
const jobs = createJobQueue(database, { log: (msg, err) => console.error(msg, err) });
const app = await buildApp({
  jobs,
  config,
  database,
  clock: systemClock,
  outbox,
  mailer: createMailer({
    smtpUrl: config.mailTransport === 'smtp' ? config.smtpUrl : undefined,
    from: config.mailFrom,
    outbox,
    log: adapterLog,
  }),
  sms: createSms({
    ...config.sms,
    gatewayUrl: config.smsTransport === 'gateway' ? config.sms.gatewayUrl : undefined,
    outbox,
    log: adapterLog,
  }),
  storage,
  classifier,
});
for (const [channel, transport] of [
  ['email', config.mailTransport],
  ['SMS', config.smsTransport],
] as const) {
  if (config.isProduction && transport === 'log') app.log.warn(`${channel} is only logged, not sent (log transport)`);
}
app.log.info({ modelDir, modelVersion: classifier.current().version }, 'rust classifier loaded');

// Photo files left without a row by a crash (written, then the process died before the insert).
const stopOrphanSweep = startOrphanPhotoSweep({
  db: database.db,
  storage,
  log: (msg, err) => (err ? app.log.error({ err }, msg) : app.log.info(msg)),
});

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
    await jobs.stop(5000);
    await app.close();
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
if (config.jobs) await jobs.startWorkers();
// Weekly availability top-up and consultation reminders (docs/decisions/0019).
if (config.jobs) stopUpkeep = startConsultationUpkeep(jobs, (msg, err) => app.log.error({ err }, msg));
await app.listen({ port: config.port, host: config.host });
app.log.info(
  `Kutu is listening on ${config.host}:${config.port}, public URL ${config.publicUrl} (database: ${database.kind})`,
);
