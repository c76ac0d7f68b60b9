import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger, FastifyInstance, RawServerDefault } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Clock } from './adapters/clock.ts';
import type { JobQueue } from './adapters/jobs.ts';
import type { Mailer } from './adapters/mailer.ts';
import type { Outbox } from './adapters/outbox.ts';
import type { Sms } from './adapters/sms.ts';
import type { Speech } from './adapters/speech.ts';
import type { VoiceCalls } from './adapters/voice-calls.ts';
import type { WeatherSource } from './adapters/weather.ts';
import type { FileStorage } from './adapters/storage.ts';
import type { Coordinator } from './adapters/coordinator.ts';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import type { DecodeLimiter } from './lib/decode-limiter.ts';
import type { ListCaches } from './lib/list-cache.ts';
import type { LiveSessions } from './lib/live-sessions.ts';
import type { AccessTokens } from './lib/tokens.ts';
import type { ClassifierHolder } from './adapters/classifier.ts';
import type { Decide, Trainer } from './adapters/trainer.ts';
import type { Notifier } from './lib/notifier.ts';
import type { Deliverer } from './lib/deliverer.ts';

/*
 * The types every feature module shares. They live apart from app.ts, which imports the modules, so
 * that no module imports the file that imports it (checked by `npm run lint:deps`).
 */

export type App = FastifyInstance<
  RawServerDefault,
  IncomingMessage,
  ServerResponse,
  FastifyBaseLogger,
  ZodTypeProvider
>;

/** What the outside world gives the app: config and adapters. Tests pass their own. */
export interface AppDeps {
  config: Config;
  database: Database;
  clock: Clock;
  mailer: Mailer;
  sms: Sms;
  /** Africa's Talking's voice calls; default: built from the config (log transport without VOICE_API_URL). */
  calls?: VoiceCalls;
  /** The server's voice (eSpeak NG and ffmpeg); default: Debian's programs on the PATH. */
  speech?: Speech;
  /** The weather forecast service (Open-Meteo); default: built from WEATHER_URL (docs/decisions/0100). */
  weather?: WeatherSource;
  /**
   * Where each district's weather is fetched, [latitude, longitude] per point (docs/decisions/0134); default:
   * every district's points. A test that reads a few districts names them: the rest read "unknown".
   */
  weatherPoints?: ReadonlyMap<string, readonly (readonly [number, number])[]>;
  storage: FileStorage;
  outbox: Outbox;
  /** The rust classifier in service; model activation and rollback swap it. */
  classifier: ClassifierHolder;
  /** Background jobs on the same database (pg-boss); this process works them only after `startWorkers()`. */
  jobs: JobQueue;
  /** News for every process of the deployment (PostgreSQL LISTEN/NOTIFY, or in memory): docs/decisions/0021. */
  coordinator?: Coordinator;
  /** Retraining settings for tests (the decision rule, the trainer); defaults are the product's. */
  training?: TrainingOptions;
  /** Delivery worker settings for tests (docs/decisions/0050): `sendAtOnce` sends before the request answers. */
  deliveryOptions?: { sendAtOnce?: boolean; leaseMs?: number; batch?: number; concurrency?: number };
}

/** What every feature module receives: the adapters plus the shared services. */
export interface ModuleDeps extends AppDeps {
  calls: VoiceCalls;
  speech: Speech;
  weather: WeatherSource;
  coordinator: Coordinator;
  db: Database['db'];
  tokens: AccessTokens;
  /** Which sign-in sessions are live (cached a few seconds); ending one closes its streams at once. */
  sessions: LiveSessions;
  /** Pages of the busiest lists, cached per process until a write changes them (docs/decisions/0025). */
  lists: ListCaches;
  /** Send a notification, read a user's language (the notifications module implements it). */
  notifications: Notifier;
  /** The one way to tell a person: in-app, SMS and email through the outbox (docs/decisions/0050). */
  delivery: Deliverer;
  /** The one limiter for all image decoding (analysis, posts, training uploads), with a per-user share. */
  decodeLimiter: DecodeLimiter;
}

/** Retraining settings a test may replace. */
export interface TrainingOptions {
  /** The rule that decides whether a candidate replaces the active model. */
  decide?: Decide;
  /** Trains, evaluates and loads models (the vision package's by default). */
  trainer?: Trainer;
  /** How long a running job may go without a heartbeat before it counts as left by a dead process. */
  staleAfterMs?: number;
}
