import { fromPglite, PgBoss, type Db as BossDb } from 'pg-boss';
import type { Database } from '../db/client.ts';
import { currentRequestId, runWithRequestId } from './request-context.ts';

/** What a job handler learns about the job it runs. */
export interface JobContext {
  /** The queue's id for this job. */
  id: string;
  /** Aborted when the worker stops (shutdown) while the job runs. */
  signal: AbortSignal;
  /** The id of the request that queued the job (logs of the job carry it), or the job's own id. */
  requestId: string;
}

export type JobHandler<T> = (data: T, ctx: JobContext) => Promise<void>;

export interface QueueSettings {
  /** Seconds a job may stay active; long for model training. */
  expireInSeconds?: number;
  /** Extra attempts after a failure (0: a failed job stays failed). */
  retryLimit?: number;
  /**
   * A job whose worker stops sending heartbeats for this long is failed by the queue's monitor
   * (a killed process). At least 10.
   */
  heartbeatSeconds?: number;
  /** Runs before this process starts working the queue: recover what a dead process left. */
  onWorkerStart?: () => Promise<void>;
  /** Runs first when this process stops working the queues (shutdown): stop taking new work. */
  onWorkerStop?: () => Promise<void>;
}

/** Queues a job on `queue` now and then every `intervalMs` (a worker runs it once); returns a stop function. */
export function repeatJob(
  jobs: Pick<JobQueue, 'send'>,
  queue: string,
  intervalMs: number,
  log: (msg: string, err: unknown) => void,
): () => void {
  const tick = () => void jobs.send(queue, {}).catch((err) => log(`${queue} not queued`, err));
  tick();
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * Background jobs on the application's own PostgreSQL (pg-boss). Any process can `send`; only a
 * process that called `startWorkers` runs handlers. Features `handle` their queues at build time.
 */
export interface JobQueue {
  handle<T extends object>(queue: string, handler: JobHandler<T>, settings?: QueueSettings): void;
  send<T extends object>(queue: string, data: T): Promise<string>;
  cancel(queue: string, id: string): Promise<void>;
  /** Starts working every handled queue in this process. */
  startWorkers(): Promise<void>;
  /** Whether this process works the queues. */
  readonly working: boolean;
  /** Jobs waiting per handled queue (for metrics); empty before the queue was first used. */
  depth(): Promise<Record<string, number>>;
  /** Stops workers (aborting running handlers after `graceMs`) and the queue. */
  stop(graceMs?: number): Promise<void>;
}

interface Registered {
  handler: JobHandler<object>;
  settings: QueueSettings;
}

/** pg-boss over the app's database: PGlite through pg-boss's own PGlite adapter, PostgreSQL through its pool. */
function bossDatabase(database: Database): { db: BossDb; backend: 'pglite' | 'postgres' } {
  // Drizzle keeps the driver it was given: the PGlite instance or the pg.Pool.
  const client = (database.db as unknown as { $client: unknown }).$client;
  if (database.kind === 'pglite') {
    // pg-boss sends multi-statement DDL without parameters; PGlite runs those only through exec(),
    // which fromPglite uses (database.execute goes through query(), one statement only).
    return { db: fromPglite(client as Parameters<typeof fromPglite>[0]), backend: 'pglite' };
  }
  const pool = client as { query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }> };
  // The raw result (an array for multi-statement text) is what pg-boss unwraps itself.
  return { db: { executeSql: (text, values) => pool.query(text, values) as never }, backend: 'postgres' };
}

/** Where job starts and ends are logged, with the id of the request that queued the job. */
export interface JobLogger {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** The request id travels in the job's data under this name (the handler sees its data without it). */
const REQUEST_ID = '_requestId';

export function createJobQueue(
  database: Database,
  opts: { log?: (msg: string, err?: unknown) => void; logger?: () => JobLogger | undefined } = {},
) {
  const registered = new Map<string, Registered>();
  const running = new Map<string, AbortController>();
  let starting: Promise<PgBoss> | null = null;
  let working = false;
  let stopped = false;
  const log = opts.log ?? (() => {});

  /** Installs or migrates pg-boss's schema on first use, so processes that never queue pay nothing. */
  function ready(): Promise<PgBoss> {
    if (stopped) return Promise.reject(new Error('The job queue is stopped'));
    starting ??= (async () => {
      const { db, backend } = bossDatabase(database);
      const b = new PgBoss({ db, backend, schedule: false, supervise: true, superviseIntervalSeconds: 5 });
      b.on('error', (err) => log('job queue error', err));
      await b.start();
      for (const [name, r] of registered) await ensureQueue(b, name, r.settings);
      return b;
    })();
    return starting;
  }

  async function ensureQueue(b: PgBoss, name: string, s: QueueSettings) {
    const options = {
      expireInSeconds: s.expireInSeconds ?? 900,
      retryLimit: s.retryLimit ?? 0,
      ...(s.heartbeatSeconds ? { heartbeatSeconds: s.heartbeatSeconds } : {}),
    };
    if (await b.getQueue(name)) await b.updateQueue(name, options);
    else await b.createQueue(name, options);
  }

  const queue: JobQueue = {
    handle(name, handler, settings = {}) {
      registered.set(name, { handler: handler as JobHandler<object>, settings });
    },
    async send(name, data) {
      const b = await ready();
      if (!registered.has(name)) throw new Error(`No handler for queue ${name}`);
      const requestId = currentRequestId();
      const id = await b.send(name, requestId ? { ...data, [REQUEST_ID]: requestId } : data);
      if (!id) throw new Error(`The queue refused a job for ${name}`);
      return id;
    },
    async cancel(name, id) {
      const b = await ready();
      await b.cancel(name, id).catch((err) => log('cancel failed', err));
    },
    async startWorkers() {
      if (working) return;
      const b = await ready();
      working = true;
      for (const [name, r] of registered) {
        await r.settings.onWorkerStart?.();
        await b.work<object>(name, { pollingIntervalSeconds: 1, batchSize: 1, localConcurrency: 1 }, async ([job]) => {
          const controller = new AbortController();
          running.set(job.id, controller);
          const { [REQUEST_ID]: given, ...data } = job.data as Record<string, unknown>;
          const requestId = typeof given === 'string' ? given : job.id;
          const logger = opts.logger?.();
          const started = Date.now();
          logger?.info({ reqId: requestId, queue: name, job: job.id }, 'job started');
          try {
            await runWithRequestId(requestId, () =>
              r.handler(data, { id: job.id, signal: controller.signal, requestId }),
            );
            logger?.info({ reqId: requestId, queue: name, job: job.id, ms: Date.now() - started }, 'job finished');
          } catch (err) {
            logger?.error({ reqId: requestId, queue: name, job: job.id, err }, 'job failed');
            throw err;
          } finally {
            running.delete(job.id);
          }
        });
      }
    },
    get working() {
      return working;
    },
    async depth() {
      if (!starting) return {};
      const b = await starting;
      const out: Record<string, number> = {};
      for (const name of registered.keys()) out[name] = (await b.getQueue(name))?.queuedCount ?? 0;
      return out;
    },
    async stop(graceMs = 5000) {
      if (stopped) return;
      stopped = true;
      if (!starting) return;
      const b = await starting.catch(() => null);
      if (!b) return;
      // Handlers watch their signal: a long training stops and records why instead of being cut off.
      for (const c of running.values()) c.abort(new Error('The server is shutting down'));
      // Work a queue does outside its jobs (the SMS sender's loop) stops taking more, within the grace.
      const stops = [...registered.values()].map((r) => r.settings.onWorkerStop?.());
      await Promise.race([Promise.allSettled(stops), new Promise((r) => setTimeout(r, graceMs).unref())]);
      await b.stop({ graceful: true, timeout: graceMs, close: false });
    },
  };
  return queue;
}
