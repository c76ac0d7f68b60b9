import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';
import { simpleParser } from 'mailparser';
import { loadConfig } from '../../src/config.ts';
import { openDatabase, type Database } from '../../src/db/client.ts';
import type { Clock } from '../../src/adapters/clock.ts';
import { createMailer } from '../../src/adapters/mailer.ts';
import { Outbox } from '../../src/adapters/outbox.ts';
import { createSms, type Sms } from '../../src/adapters/sms.ts';
import { createVoiceCalls, type VoiceCalls } from '../../src/adapters/voice-calls.ts';
import { createMemoryCoordinator } from '../../src/adapters/coordinator.ts';
import {
  createChannels,
  createDeliveryService,
  type DeliveryOptions,
} from '../../src/modules/delivery/delivery.service.ts';
import { createLocalStorage } from '../../src/adapters/storage.ts';
import { createJobQueue } from '../../src/adapters/jobs.ts';
import { defaultModelDir, loadClassifier, type Classifier } from '@kutu/vision';
import { createClassifierHolder } from '../../src/adapters/classifier.ts';
import { buildApp } from '../../src/app.ts';
import { migratedPgliteSnapshot, migrationsKey } from './pglite-snapshot.ts';
import type { App, AppDeps } from '../../src/deps.ts';

export interface ReceivedMail {
  to: string;
  subject: string;
  text: string;
  attachments: { filename: string; contentType: string; content: Buffer }[];
}

/** A real SMTP peer on a random local port; the app's mail goes through nodemailer to it. */
export async function startSmtpPeer() {
  const inbox: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          for (const rcpt of session.envelope.rcptTo) {
            inbox.push({
              to: rcpt.address,
              subject: mail.subject ?? '',
              text: mail.text ?? '',
              attachments: mail.attachments.map((a) => ({
                filename: a.filename ?? '',
                contentType: a.contentType,
                content: a.content,
              })),
            });
          }
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as { port: number }).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    inbox,
    /** The newest mail to this address (waits briefly: delivery is asynchronous). */
    async lastMailTo(address: string, timeoutMs = 3000): Promise<ReceivedMail> {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const found = inbox.filter((m) => m.to === address.toLowerCase()).at(-1);
        if (found) return found;
        await new Promise((r) => setTimeout(r, 20));
      }
      throw new Error(`No mail to ${address}`);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * A fresh database: PostgreSQL (a new database on TEST_DATABASE_URL's server) or in-memory PGlite; with
 * `pgliteDir`, PGlite in that directory whatever TEST_DATABASE_URL says (tests of the embedded database's files).
 */
export async function openTestDatabase(
  opts: { pgliteDir?: string } = {},
): Promise<{ database: Database; drop: () => Promise<void> }> {
  const url = process.env.TEST_DATABASE_URL;
  if (opts.pgliteDir) {
    const seed = new PGlite(opts.pgliteDir, { loadDataDir: await migratedPgliteSnapshot() });
    await seed.waitReady;
    await seed.close();
    const database = await openDatabase({ pgliteDir: opts.pgliteDir });
    return { database, drop: () => database.close() };
  }
  if (!url) {
    const database = await openDatabase({ pgliteDir: null, pgliteSnapshot: await migratedPgliteSnapshot() });
    return { database, drop: () => database.close() };
  }
  const name = `kutu_test_${randomUUID().replaceAll('-', '')}`;
  const template = await migratedTemplate(url);
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database ${name} template ${template}`);
  await admin.end();
  const database = await openDatabase({ url: databaseUrl(url, name) });
  return {
    database,
    drop: async () => {
      await database.close();
      const a = new pg.Client({ connectionString: url });
      await a.connect();
      // Without FORCE: forcing would kill connections that are still closing and crash the test worker.
      // The throwaway cluster is deleted afterwards anyway, so a database that stays busy is left behind.
      for (let attempt = 0; attempt < 20; attempt++) {
        try {
          await a.query(`drop database if exists ${name}`);
          break;
        } catch {
          await new Promise((r) => setTimeout(r, 100));
        }
      }
      await a.end();
    },
  };
}

function databaseUrl(serverUrl: string, name: string): string {
  const dbUrl = new URL(serverUrl);
  dbUrl.pathname = `/${name}`;
  return dbUrl.toString();
}

let template: Promise<string> | null = null;
/**
 * A migrated, empty database on TEST_DATABASE_URL's server, made once and copied by every test database
 * (`create database … template`): migrating a new database took 1.5 to 6 s, a copy takes about 0.3 s.
 * Its name carries the migrations' hash, so a changed migration makes a new one. Test processes start
 * side by side: under an advisory lock, the first makes it and the others find it. Nothing stays
 * connected to it (PostgreSQL copies only a database nobody is using).
 */
function migratedTemplate(url: string): Promise<string> {
  template ??= (async () => {
    const name = `kutu_template_${migrationsKey()}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await admin.query('select pg_advisory_lock($1)', [TEMPLATE_LOCK]);
      const found = await admin.query('select 1 from pg_database where datname = $1', [name]);
      if (found.rowCount === 0) {
        // Made under another name and renamed when migrated: a run stopped half-way leaves no half template.
        const partial = `${name}_${process.pid}`;
        await admin.query(`drop database if exists ${partial}`);
        await admin.query(`create database ${partial}`);
        const database = await openDatabase({ url: databaseUrl(url, partial) });
        try {
          await database.migrate();
        } finally {
          await database.close();
        }
        // The closed pool's server processes may take a moment to leave, and a rename waits for none.
        for (let attempt = 0; ; attempt++) {
          try {
            await admin.query(`alter database ${partial} rename to ${name}`);
            break;
          } catch (err) {
            if (attempt === 50) throw err;
            await new Promise((r) => setTimeout(r, 100));
          }
        }
      }
      return name;
    } finally {
      await admin.query('select pg_advisory_unlock($1)', [TEMPLATE_LOCK]).catch(() => {});
      await admin.end();
    }
  })().catch((err: unknown) => {
    template = null;
    throw err;
  });
  return template;
}
const TEMPLATE_LOCK = 7_340_112;

/** A settable clock for rules about time. */
export function testClock(start = new Date()): Clock & { set(d: Date): void; advance(ms: number): void } {
  let now = start;
  return {
    now: () => new Date(now),
    set: (d) => {
      now = d;
    },
    advance: (ms) => {
      now = new Date(now.getTime() + ms);
    },
  };
}

let sharedClassifier: Promise<Classifier> | null = null;
/**
 * The committed model, loaded once per test process and shared by every test app. Holders get a view
 * whose close() does nothing, so a test that swaps models cannot close it under the others.
 */
export async function committedClassifier(): Promise<Classifier> {
  sharedClassifier ??= loadClassifier(defaultModelDir());
  const model = await sharedClassifier;
  return {
    version: model.version,
    dir: model.dir,
    card: model.card,
    // The options too: the crop named picks the share's colour rules, as in the served app.
    classify: (image, options) => model.classify(image, options),
    close: async () => {},
  };
}

export interface TestContext {
  app: App;
  deps: AppDeps;
  smtp: Awaited<ReturnType<typeof startSmtpPeer>>;
  outbox: Outbox;
  clock: ReturnType<typeof testClock>;
  dataDir: string;
  close(): Promise<void>;
}

/**
 * buildApp over a fresh database, a real SMTP peer, console SMS into the outbox, a temp data dir and
 * a real job queue on the same database (worked in this process only with `workJobs: true`).
 */
export async function createTestApp(
  overrides: Partial<AppDeps> & {
    env?: Record<string, string>;
    workJobs?: boolean;
    /** The embedded database in DATA_DIR/db, as the server keeps it, even where TEST_DATABASE_URL is set. */
    pgliteOnDisk?: boolean;
  } = {},
): Promise<TestContext> {
  const smtp = await startSmtpPeer();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kutu-test-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    SMTP_URL: smtp.url,
    RATE_LIMIT_MAX: '100000',
    WEB_DIST: path.join(dataDir, 'no-web'),
    JOBS: 'off',
    // No test reaches the internet: a test of the forecast serves Open-Meteo's replies itself.
    WEATHER_URL: 'off',
    ...overrides.env,
  });
  const { database, drop } = await openTestDatabase(
    overrides.pgliteOnDisk ? { pgliteDir: path.join(dataDir, 'db') } : {},
  );
  const outbox = new Outbox();
  const clock = testClock();
  const { workJobs, env: _env, pgliteOnDisk: _onDisk, ...adapterOverrides } = overrides;
  const deps: AppDeps = {
    config,
    database,
    clock,
    outbox,
    mailer: createMailer({ smtpUrl: smtp.url, from: config.mailFrom, outbox }),
    sms: createSms({ senderId: 'KUTU', outbox }),
    storage: createLocalStorage(path.join(dataDir, 'uploads')),
    jobs: createJobQueue(database),
    classifier: createClassifierHolder(await committedClassifier()),
    // Messages go out before the request answers, so tests read them at once (the product's worker sends them).
    deliveryOptions: { sendAtOnce: true },
    ...adapterOverrides,
  };
  const app = await buildApp(deps);
  await app.ready();
  if (workJobs) await deps.jobs.startWorkers();
  return {
    app,
    deps,
    smtp,
    outbox,
    clock,
    dataDir,
    async close() {
      await deps.jobs.stop(1000);
      await app.close();
      await drop();
      await smtp.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A delivery service's first two arguments from its adapters: the deps and the channel table built from
 * them, as services.ts builds it (`createDeliveryService(...withChannels(deps), options)`).
 */
export function withChannels<D extends Omit<Parameters<typeof createChannels>[0], 'calls'> & { calls?: VoiceCalls }>(
  deps: D,
) {
  // No voice gateway given: calls are only logged (none is placed), as in development.
  return [deps, createChannels({ calls: createVoiceCalls({}), ...deps })] as const;
}

/**
 * A delivery service (the outbox) over the test app's database and adapters, sending at once; `over` puts a
 * test's own SMS gateway, clock or voice calls in place of the app's, `options` are the service's own.
 */
export function testDelivery(
  t: Pick<TestContext, 'deps' | 'clock'>,
  over: { sms?: Sms; clock?: Clock; calls?: VoiceCalls } = {},
  options: DeliveryOptions = { sendAtOnce: true },
) {
  return createDeliveryService(
    ...withChannels({
      db: t.deps.database.db,
      clock: t.clock,
      sms: t.deps.sms,
      mailer: t.deps.mailer,
      coordinator: createMemoryCoordinator(),
      config: t.deps.config,
      ...over,
    }),
    options,
  );
}

/**
 * Outbox entries (newest first) with the numbered parts of a long SMS ("… (1/2)", "… (2/2)") joined back
 * into one text, as a phone shows them one after the other.
 */
export function joinSmsParts<T extends { text: string }>(entries: T[]): T[] {
  const out: T[] = [];
  let parts: string[] = [];
  for (const e of [...entries].reverse()) {
    const m = / \((\d+)\/(\d+)\)$/.exec(e.text);
    if (!m) {
      out.push(e);
      continue;
    }
    parts.push(e.text.slice(0, m.index));
    if (m[1] === m[2]) {
      out.push({ ...e, text: parts.join(' ') });
      parts = [];
    }
  }
  return out.reverse();
}
