import path from 'node:path';
import { z } from 'zod';

const DEV_SECRET = 'kutu-development-secret-change-me-in-production';

const schema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: z.coerce.number().int().min(0).max(65535).default(8080),
    HOST: z.string().default('0.0.0.0'),
    DATA_DIR: z.string().default('./data'),
    DATABASE_URL: z.string().url().optional(),
    /** Base of links in emails; defaults to http://localhost:<PORT>. */
    PUBLIC_URL: z.string().url().optional(),
    CORS_ORIGINS: z.string().default(''),
    SMTP_URL: z.string().url().optional(),
    MAIL_FROM: z.string().default('Kutu <no-reply@kutu.local>'),
    SMS_GATEWAY_URL: z.string().url().optional(),
    SMS_GATEWAY_KEY: z.string().optional(),
    SMS_SENDER_ID: z.string().default('KUTU'),
    JWT_ACCESS_SECRET: z.string().min(32).optional(),
    JWT_REFRESH_SECRET: z.string().min(32).optional(),
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
    /** Base training images (class folders) for retraining; default datasets/rust3 in the repository. */
    TRAINING_BASE_DIR: z.string().optional(),
    /** The fixed evaluation list a candidate model is judged on; default the vision package's. */
    TRAINING_EVAL_SET: z.string().optional(),
    TRAINING_EPOCHS: z.coerce.number().int().min(1).max(200).optional(),
  })
  .superRefine((env, ctx) => {
    if (env.NODE_ENV !== 'production') return;
    for (const key of ['JWT_ACCESS_SECRET', 'JWT_REFRESH_SECRET'] as const) {
      if (!env[key]) ctx.addIssue({ code: 'custom', path: [key], message: `${key} is required in production` });
    }
  });

export type Config = ReturnType<typeof loadConfig>;

/** The one reader of process.env. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env) {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n');
    throw new Error(`Invalid configuration:\n${lines}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  return {
    env: e.NODE_ENV,
    isProduction: e.NODE_ENV === 'production',
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ''),
    corsOrigins: e.CORS_ORIGINS.split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    sms: { gatewayUrl: e.SMS_GATEWAY_URL, apiKey: e.SMS_GATEWAY_KEY, senderId: e.SMS_SENDER_ID },
    jwt: {
      accessSecret: e.JWT_ACCESS_SECRET ?? DEV_SECRET,
      refreshSecret: e.JWT_REFRESH_SECRET ?? `${DEV_SECRET}-refresh`,
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
    training: {
      baseDir: e.TRAINING_BASE_DIR
        ? path.resolve(e.TRAINING_BASE_DIR)
        : path.resolve(import.meta.dirname, '../../../datasets/rust3'),
      evalSet: e.TRAINING_EVAL_SET ? path.resolve(e.TRAINING_EVAL_SET) : undefined,
      epochs: e.TRAINING_EPOCHS,
    },
  };
}
