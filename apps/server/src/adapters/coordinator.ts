import { EventEmitter } from 'node:events';
import pg from 'pg';

/**
 * What one process tells every process of the deployment (docs/decisions/0021). Payloads are small
 * (ids, not records): PostgreSQL's NOTIFY carries at most 8000 bytes, and each receiver reads what it
 * needs from the database only when it has someone to tell.
 */
export type ClusterEvent =
  /** A notification was created for a user (the receiver loads it if it holds a stream of that user). */
  | { type: 'notification-created'; userId: number; notificationId: number }
  /** A user's notifications were marked read; streams update the unread count. */
  | { type: 'notifications-read'; userId: number }
  /** A model version became active: every web process loads it (no restart). */
  | { type: 'model-activated'; versionId: number; version: string }
  /**
   * Sessions ended (sign-out, refresh-token reuse, password change or reset). With `sessionId` one
   * session family, without it every session of the user. For per-process caches of session state.
   */
  | { type: 'session-revoked'; userId: number; sessionId?: string }
  /** A write changed what a cached list shows: every process drops its pages of it (lib/list-cache.ts). */
  | { type: 'list-changed'; list: CachedList };

/** The lists whose pages each process caches until a write changes them (docs/decisions/0025). */
/** `severity-trust`: whether severity still reads "estimate" (one value, changed by severity ratings). */
/** `field-cut`: each crop's unsure cut learnt from verified held-back photos (changed by verdicts; 0119). */
export type CachedList = 'approved-posts' | 'bookable-slots' | 'outbreak-map' | 'severity-trust' | 'field-cut';

export type ClusterEventType = ClusterEvent['type'];
export type ClusterHandler<T extends ClusterEventType> = (event: Extract<ClusterEvent, { type: T }>) => void;

/**
 * Publish/subscribe between the processes of one deployment. `publish` reaches every subscriber in
 * every process, this one included (exactly once each). Handlers run after the publishing
 * transaction is visible; a throwing handler is logged and does not affect others.
 */
export interface Coordinator {
  readonly kind: 'memory' | 'postgres';
  publish(event: ClusterEvent): Promise<void>;
  /** Subscribes; returns the function that unsubscribes. */
  on<T extends ClusterEventType>(type: T, handler: ClusterHandler<T>): () => void;
  close(): Promise<void>;
}

function localBus(log: (msg: string, err?: unknown) => void) {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    deliver(event: ClusterEvent) {
      for (const handler of emitter.listeners(event.type)) {
        try {
          (handler as (e: ClusterEvent) => void)(event);
        } catch (err) {
          log(`a ${event.type} handler failed`, err);
        }
      }
    },
    on<T extends ClusterEventType>(type: T, handler: ClusterHandler<T>) {
      emitter.on(type, handler as never);
      return () => {
        emitter.off(type, handler as never);
      };
    },
  };
}

/** One process (PGlite, tests): events go straight to this process's subscribers. */
export function createMemoryCoordinator(log: (msg: string, err?: unknown) => void = () => {}): Coordinator {
  const bus = localBus(log);
  return {
    kind: 'memory',
    publish: async (event) => bus.deliver(event),
    on: bus.on,
    close: async () => {},
  };
}

export const CHANNEL = 'kutu_events';

/**
 * Several processes on one PostgreSQL: NOTIFY on a channel, LISTEN on one dedicated connection per
 * process (a pooled connection cannot keep listening). The connection is re-opened after a failure;
 * events sent while it was down are missed, which streams survive (clients re-read on reconnect) and
 * model activation too (each process also checks the active version when it reconnects: `onReconnect`).
 */
export async function createPgCoordinator(opts: {
  url: string;
  log?: (msg: string, err?: unknown) => void;
  /** After the listening connection was re-established (not on the first connect). */
  onReconnect?: () => void;
  retryMs?: number;
}): Promise<Coordinator> {
  const log = opts.log ?? (() => {});
  const bus = localBus(log);
  const publisher = new pg.Pool({ connectionString: opts.url, max: 2 });
  publisher.on('error', (err) => log('coordinator publish connection error', err));
  let listener: pg.Client | null = null;
  let closed = false;

  async function listen(first: boolean): Promise<void> {
    const client = new pg.Client({ connectionString: opts.url });
    client.on('notification', (msg) => {
      if (msg.channel !== CHANNEL || !msg.payload) return;
      let event: ClusterEvent;
      try {
        event = JSON.parse(msg.payload) as ClusterEvent;
      } catch (err) {
        log('coordinator: unreadable event', err);
        return;
      }
      bus.deliver(event);
    });
    client.on('error', (err) => {
      log('coordinator: the listening connection failed; reconnecting', err);
      void client.end().catch(() => {});
      if (listener === client) listener = null;
      if (!closed) setTimeout(() => void reconnect(), opts.retryMs ?? 1000).unref();
    });
    await client.connect();
    await client.query(`LISTEN ${CHANNEL}`);
    listener = client;
    if (!first) opts.onReconnect?.();
  }

  async function reconnect() {
    if (closed || listener) return;
    try {
      await listen(false);
    } catch (err) {
      log('coordinator: reconnecting failed; trying again', err);
      setTimeout(() => void reconnect(), opts.retryMs ?? 1000).unref();
    }
  }

  await listen(true);
  return {
    kind: 'postgres',
    async publish(event) {
      await publisher.query('select pg_notify($1, $2)', [CHANNEL, JSON.stringify(event)]);
    },
    on: bus.on,
    async close() {
      closed = true;
      await listener?.end().catch(() => {});
      await publisher.end().catch(() => {});
    },
  };
}
