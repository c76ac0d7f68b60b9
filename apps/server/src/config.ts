import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_BULK_SIZE, DEFAULT_GATEWAY_TIMEOUT_MS } from './adapters/sms.ts';
import { shortestLeaseSeconds } from './lib/delivery-lease.ts';
import { transports } from './lib/transports.ts';
import { parseTrustProxy } from './lib/trust-proxy.ts';

const DEFAULT_GATEWAY_SECONDS = DEFAULT_GATEWAY_TIMEOUT_MS / 1000;
const OLD_DEV_SECRET = 'kutu-development-secret-change-me-in-production';
/** Once the development default, published in this repository: refused in every mode. */
const PUBLISHED_SECRETS = new Set([OLD_DEV_SECRET, `${OLD_DEV_SECRET}-refresh`]);
/**
 * Until the installation's stored secrets are read (server.ts), and for code that builds an app from
 * the configuration alone (tests): random for this process, never a published value.
 */
const PROCESS_SECRETS = {
  access: randomBytes(32).toString('base64url'),
  refresh: randomBytes(32).toString('base64url'),
};
const MIN_SECRET_LENGTH = 32;
const schema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: z.coerce.number().int().min(0).max(65535).default(8080),
    HOST: z.string().trim().min(1).optional(),
    DATA_DIR: z.string().default('./data'),
    DATABASE_URL: z.string().url().optional(),
    /** Base of links in emails; defaults to http://localhost:<PORT>. */
    PUBLIC_URL: z.string().url().optional(),
    CORS_ORIGINS: z.string().default(''),
    SMTP_URL: z.string().url().optional(),
    /** `log`: write each email to the log instead of sending it (the default without SMTP_URL outside production). */
    MAIL_TRANSPORT: z.enum(['smtp', 'log']).optional(),
    /** `log`: write each SMS to the log instead of sending it (the default without a gateway outside production). */
    SMS_TRANSPORT: z.enum(['gateway', 'log']).optional(),
    TRUST_PROXY: z.string().default(''),
    MAIL_FROM: z.string().default('Kutu <no-reply@kutu.local>'),
    SMS_GATEWAY_URL: z.string().url().optional(),
    SMS_GATEWAY_KEY: z.string().optional(),
    /** The Africa's Talking account's username, sent with every SMS (`sandbox` on its sandbox). */
    SMS_GATEWAY_USERNAME: z.string().trim().optional(),
    SMS_SENDER_ID: z.string().default('KUTU'),
    /**
     * The shared secret the SMS/USSD gateway sends with every callback (USSD, inbound SMS): the `key`
     * query parameter of the callback URL, or the X-Callback-Key header. Required in production; without
     * it elsewhere the callback routes answer 503 (the try-out screen still works).
     */
    AT_CALLBACK_SECRET: z.string().min(16).optional(),
    /** Callbacks per phone number and minute on the USSD and inbound SMS routes. */
    PHONE_RATE_LIMIT_MAX: z.coerce.number().int().positive().default(30),
    /** The USSD code farmers dial, as the texts name it (the menu, the SMS that ask a farmer to answer). */
    USSD_CODE: z
      .string()
      .regex(/^\*[0-9*]+#$/, 'a USSD code such as *384*123#')
      .default('*384*123#'),
    /**
     * Africa's Talking's voice call API (`https://voice.africastalking.com/call`), with the SMS gateway's key and
     * username (one account); unset: a call a farmer asks for is only logged (docs/decisions/0087).
     */
    VOICE_API_URL: z.string().url().optional(),
    /** Kutu's Africa's Talking voice number (E.164), the caller id of the calls Kutu places. */
    VOICE_PHONE_NUMBER: z
      .string()
      .regex(/^\+[1-9]\d{6,14}$/, 'a number in international format, such as +254711082000')
      .optional(),
    /** The shared secret the SMS gateway's delivery reports carry (`?secret=`); unset: reports are refused. */
    SMS_REPORT_SECRET: z.string().min(16).optional(),
    /** Seconds the SMS gateway has to answer one request (one part of a message); the delivery lease follows from it. */
    SMS_GATEWAY_TIMEOUT_SECONDS: z.coerce.number().min(0.1).max(120).default(DEFAULT_GATEWAY_SECONDS),
    /** Numbers in one bulk request to the SMS gateway (docs/decisions/0130); 1: a request per message. */
    SMS_BULK_SIZE: z.coerce.number().int().min(1).max(10_000).default(DEFAULT_BULK_SIZE),
    /**
     * How long a delivery worker holds the messages it claimed; a dead worker's are sent after this.
     * Unset: the shortest lease that covers the longest send at SMS_GATEWAY_TIMEOUT_SECONDS (lib/delivery-lease.ts).
     */
    DELIVERY_LEASE_SECONDS: z.coerce.number().int().min(1).max(3600).optional(),
    /**
     * Sends (a bulk request, or one message) a delivery worker has in flight at once (docs/decisions/0139);
     * also the most bulk requests a worker killed mid-send may leave to be posted again.
     */
    DELIVERY_SENDS_IN_FLIGHT: z.coerce.number().int().min(1).max(256).default(32),
    /**
     * Claims a delivery worker sends at once (docs/decisions/0139): 2 lets one process claim the next while
     * the last waits on the gateway; with several worker processes, 1 each (their claims contend).
     */
    DELIVERY_CLAIMS_AT_ONCE: z.coerce.number().int().min(1).max(4).default(2),
    JWT_ACCESS_SECRET: z.string().min(MIN_SECRET_LENGTH).optional(),
    JWT_REFRESH_SECRET: z.string().min(MIN_SECRET_LENGTH).optional(),
    ACCESS_TOKEN_TTL_SECONDS: z.coerce
      .number()
      .int()
      .positive()
      .default(15 * 60),
    REFRESH_TOKEN_TTL_DAYS: z.coerce.number().int().positive().default(30),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    RATE_LIMIT_MAX: z.coerce.number().int().positive().default(300),
    /** Per address and per minute on each sign-in, code and reset route; default 20 in production, 600 otherwise. */
    AUTH_RATE_LIMIT_MAX: z.coerce.number().int().positive().optional(),
    WEB_DIST: z.string().optional(),
    MODEL_DIR: z.string().optional(),
    RETRAIN_AFTER_SAMPLES: z.coerce.number().int().min(0).default(50),
    JOBS: z.enum(['on', 'off']).default('on'),
    /** Open-Meteo (docs/decisions/0100): the public one, a self-hosted one (docs/deploy.md), or `off` (all unknown). */
    WEATHER_URL: z.union([z.literal('off'), z.string().url()]).default('https://api.open-meteo.com'),
    /** Seconds one weather request may take: short, so that a machine without internet says "weather unknown" at once. */
    WEATHER_TIMEOUT_SECONDS: z.coerce.number().min(0.1).max(120).default(5),
    /** Hours between weather fetches and forecast runs (one also runs at start). */
    WEATHER_EVERY_HOURS: z.coerce.number().min(1).max(48).default(6),
    /** The hour (EAT, 0–23) a run's rust advisories go out each day, unless held (docs/decisions/0128). */
    ADVISORY_SEND_HOUR: z.coerce.number().int().min(0).max(23).default(10),
    /** Base training images (class folders) for retraining; default datasets/rust3 in the repository. */
    TRAINING_BASE_DIR: z.string().optional(),
    /** The fixed evaluation list a candidate model is judged on; default the vision package's. */
    TRAINING_EVAL_SET: z.string().optional(),
    TRAINING_EPOCHS: z.coerce.number().int().min(1).max(200).optional(),
    /**
     * Held-back field photos a crop needs before the field check judges it (docs/decisions/0086); with fewer,
     * a candidate waits for an administrator (0118). Default the vision package's FIELD_GATE.minPhotos.
     */
    TRAINING_FIELD_MIN_PHOTOS: z.coerce.number().int().min(1).optional(),
    // --- several processes (docs/decisions/0021) ---
    /** Uploads and retrained models: `s3://bucket[/prefix]?endpoint=…&region=…&forcePathStyle=true`, or local disk. */
    STORAGE_URL: z.string().url().optional(),
    /** Bearer token for /metrics; without it only loopback clients may read metrics. */
    METRICS_TOKEN: z.string().min(16).optional(),
    // --- scheduled backups (modules/backup) ---
    /** Where the worker writes its backups; default DATA_DIR/backups (better: another disk). */
    BACKUP_DIR: z.string().optional(),
    /** How many scheduled backups to keep; older archives are removed. */
    BACKUP_KEEP: z.coerce.number().int().min(1).max(1000).default(7),
    /** Hours between scheduled backups; 0 turns them off. */
    BACKUP_EVERY_HOURS: z.coerce
      .number()
      .min(0)
      .max(24 * 31)
      .default(24),
    /**
     * Niceness of the process that checksums, compresses and reads back an archive (0–19): the server's
     * requests come first. 0 does it in the server's own process (docs/decisions/0080).
     */
    BACKUP_NICE: z.coerce.number().int().min(0).max(19).default(10),
  })
  .superRefine((env, ctx) => {
    const trustProxy = parseTrustProxy(env.TRUST_PROXY);
    if (typeof trustProxy === 'object' && 'error' in trustProxy) {
      ctx.addIssue({ code: 'custom', path: ['TRUST_PROXY'], message: trustProxy.error });
    }
    if (env.MAIL_TRANSPORT === 'smtp' && !env.SMTP_URL) {
      ctx.addIssue({ code: 'custom', path: ['SMTP_URL'], message: 'SMTP_URL is required with MAIL_TRANSPORT=smtp' });
    }
    if (env.SMS_TRANSPORT === 'gateway' && !env.SMS_GATEWAY_URL) {
      ctx.addIssue({
        code: 'custom',
        path: ['SMS_GATEWAY_URL'],
        message: 'SMS_GATEWAY_URL is required with SMS_TRANSPORT=gateway',
      });
    }
    if (env.VOICE_API_URL) {
      for (const key of ['VOICE_PHONE_NUMBER', 'SMS_GATEWAY_KEY', 'SMS_GATEWAY_USERNAME'] as const) {
        if (!env[key]) {
          ctx.addIssue({ code: 'custom', path: [key], message: `${key} is required with VOICE_API_URL` });
        }
      }
    }
    // A claim that ran out while its send still waits on the gateway lets another worker send it again.
    const shortestLease = shortestLeaseSeconds(env.SMS_GATEWAY_TIMEOUT_SECONDS * 1000);
    if (env.DELIVERY_LEASE_SECONDS !== undefined && env.DELIVERY_LEASE_SECONDS < shortestLease) {
      ctx.addIssue({
        code: 'custom',
        path: ['DELIVERY_LEASE_SECONDS'],
        message: `${env.DELIVERY_LEASE_SECONDS} s is shorter than the longest send at SMS_GATEWAY_TIMEOUT_SECONDS=${env.SMS_GATEWAY_TIMEOUT_SECONDS} allows: at least ${shortestLease} s (a send starts in the first half of its lease, and each part of a long SMS may wait the whole timeout); leave it unset to derive it`,
      });
    }
    for (const key of ['JWT_ACCESS_SECRET', 'JWT_REFRESH_SECRET'] as const) {
      if (PUBLISHED_SECRETS.has(env[key] ?? '')) {
        ctx.addIssue({
          code: 'custom',
          path: [key],
          message: `${key} is a published development secret; set a random one of at least ${MIN_SECRET_LENGTH} characters, or leave it unset for a random one kept in the database`,
        });
      }
    }
    if (env.NODE_ENV !== 'production') return;
    // Each secret has one use (signing access tokens; keying the stored hashes of refresh and link
    // tokens): one value for both makes a leak of either a leak of both.
    if (env.JWT_ACCESS_SECRET && env.JWT_ACCESS_SECRET === env.JWT_REFRESH_SECRET) {
      ctx.addIssue({
        code: 'custom',
        path: ['JWT_REFRESH_SECRET'],
        message: 'JWT_REFRESH_SECRET must differ from JWT_ACCESS_SECRET; set two different random secrets',
      });
    }
    for (const key of ['JWT_ACCESS_SECRET', 'JWT_REFRESH_SECRET'] as const) {
      if (!env[key]) ctx.addIssue({ code: 'custom', path: [key], message: `${key} is required in production` });
    }
    // Nothing may silently go undelivered: a real transport, or an explicit choice to only log.
    if (!env.SMTP_URL && env.MAIL_TRANSPORT !== 'log') {
      ctx.addIssue({
        code: 'custom',
        path: ['SMTP_URL'],
        message: 'SMTP_URL is required in production (or MAIL_TRANSPORT=log to only log each email)',
      });
    }
    if (!env.AT_CALLBACK_SECRET) {
      ctx.addIssue({
        code: 'custom',
        path: ['AT_CALLBACK_SECRET'],
        message:
          'AT_CALLBACK_SECRET is required in production: a random secret of at least 16 characters, also put in the gateway callback URLs',
      });
    }
    if (!env.SMS_GATEWAY_URL && env.SMS_TRANSPORT !== 'log') {
      ctx.addIssue({
        code: 'custom',
        path: ['SMS_GATEWAY_URL'],
        message:
          'SMS_GATEWAY_URL and SMS_GATEWAY_KEY are required in production (or SMS_TRANSPORT=log to only log each SMS)',
      });
    } else if (env.SMS_GATEWAY_URL && env.SMS_TRANSPORT !== 'log') {
      if (!env.SMS_GATEWAY_KEY) {
        ctx.addIssue({
          code: 'custom',
          path: ['SMS_GATEWAY_KEY'],
          message: 'SMS_GATEWAY_KEY is required in production with SMS_GATEWAY_URL',
        });
      }
      if (!env.SMS_GATEWAY_USERNAME) {
        ctx.addIssue({
          code: 'custom',
          path: ['SMS_GATEWAY_USERNAME'],
          message:
            "SMS_GATEWAY_USERNAME (the Africa's Talking account's username; sandbox on its sandbox) is required in production with SMS_GATEWAY_URL",
        });
      }
    }
  });

export type Config = ReturnType<typeof loadConfig>;

/** A setting the server cannot start with; its message names each variable and what is wrong. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** The one reader of process.env. Throws a ConfigError naming every wrong setting. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env) {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n');
    throw new ConfigError(`Invalid configuration:\n${lines}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  return {
    env: e.NODE_ENV,
    isProduction: e.NODE_ENV === 'production',
    port: e.PORT,
    host: e.HOST ?? (e.NODE_ENV === 'production' ? '0.0.0.0' : '127.0.0.1'), // docs/decisions/0125
    dataDir,
    databaseUrl: e.DATABASE_URL,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ''),
    corsOrigins: e.CORS_ORIGINS.split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    smtpUrl: e.SMTP_URL,
    // mailTransport, smsTransport and devOutboxOff (lib/transports.ts).
    ...transports(e),
    trustProxy: parseTrustProxy(e.TRUST_PROXY) as false | number | string[],
    mailFrom: e.MAIL_FROM,
    sms: {
      gatewayUrl: e.SMS_GATEWAY_URL,
      apiKey: e.SMS_GATEWAY_KEY,
      username: e.SMS_GATEWAY_USERNAME,
      senderId: e.SMS_SENDER_ID,
      timeoutMs: e.SMS_GATEWAY_TIMEOUT_SECONDS * 1000,
      bulkSize: e.SMS_BULK_SIZE,
    },
    phone: { callbackSecret: e.AT_CALLBACK_SECRET, rateLimitMax: e.PHONE_RATE_LIMIT_MAX, ussdCode: e.USSD_CODE },
    voice: {
      apiUrl: e.VOICE_API_URL,
      apiKey: e.SMS_GATEWAY_KEY,
      username: e.SMS_GATEWAY_USERNAME,
      from: e.VOICE_PHONE_NUMBER,
      timeoutMs: e.SMS_GATEWAY_TIMEOUT_SECONDS * 1000,
    },
    jwt: {
      accessSecret: e.JWT_ACCESS_SECRET ?? PROCESS_SECRETS.access,
      refreshSecret: e.JWT_REFRESH_SECRET ?? PROCESS_SECRETS.refresh,
      /** Which secrets the installation keeps in its database (unset here): server.ts reads them at start. */
      stored: { access: !e.JWT_ACCESS_SECRET, refresh: !e.JWT_REFRESH_SECRET },
      accessTtlSeconds: e.ACCESS_TOKEN_TTL_SECONDS,
      refreshTtlDays: e.REFRESH_TOKEN_TTL_DAYS,
    },
    logLevel: e.LOG_LEVEL,
    rateLimitMax: e.RATE_LIMIT_MAX,
    authRateLimitMax: e.AUTH_RATE_LIMIT_MAX ?? (e.NODE_ENV === 'production' ? 20 : 600),
    webDist: path.resolve(e.WEB_DIST ?? path.join(import.meta.dirname, '../../web/dist')),
    modelDir: e.MODEL_DIR ? path.resolve(e.MODEL_DIR) : undefined,
    retrainAfterSamples: e.RETRAIN_AFTER_SAMPLES,
    jobs: e.JOBS === 'on',
    weather: {
      url: e.WEATHER_URL,
      timeoutMs: e.WEATHER_TIMEOUT_SECONDS * 1000,
      everyMs: e.WEATHER_EVERY_HOURS * 3_600_000,
      advisorySendHour: e.ADVISORY_SEND_HOUR,
    },
    training: {
      baseDir: e.TRAINING_BASE_DIR
        ? path.resolve(e.TRAINING_BASE_DIR)
        : path.resolve(import.meta.dirname, '../../../datasets/rust3'),
      evalSet: e.TRAINING_EVAL_SET ? path.resolve(e.TRAINING_EVAL_SET) : undefined,
      epochs: e.TRAINING_EPOCHS,
      fieldMinPhotos: e.TRAINING_FIELD_MIN_PHOTOS,
    },
    storageUrl: e.STORAGE_URL,
    metricsToken: e.METRICS_TOKEN,
    smsReportSecret: e.SMS_REPORT_SECRET,
    deliveryLeaseSeconds: e.DELIVERY_LEASE_SECONDS ?? shortestLeaseSeconds(e.SMS_GATEWAY_TIMEOUT_SECONDS * 1000),
    deliverySendsInFlight: e.DELIVERY_SENDS_IN_FLIGHT,
    deliveryClaimsAtOnce: e.DELIVERY_CLAIMS_AT_ONCE,
    backup: {
      dir: path.resolve(e.BACKUP_DIR ?? path.join(dataDir, 'backups')),
      keep: e.BACKUP_KEEP,
      everyHours: e.BACKUP_EVERY_HOURS,
      nice: e.BACKUP_NICE,
    },
  };
}
