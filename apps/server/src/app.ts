import Fastify from 'fastify';
import compress from '@fastify/compress';
import cors from '@fastify/cors';
import multipart from '@fastify/multipart';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { App, AppDeps, ModuleDeps } from './deps.ts';
import type { Config } from './config.ts';
import { createMemoryCoordinator } from './adapters/coordinator.ts';
import { createDecodeLimiter } from './lib/decode-limiter.ts';
import { errorLogHooks } from './lib/log-errors.ts';
import { createListCaches } from './lib/list-cache.ts';
import { createExpertGate } from './lib/expert-gate.ts';
import { createLiveSessions } from './lib/live-sessions.ts';
import { createAccessTokens } from './lib/tokens.ts';
import { authPlugin } from './plugins/auth.ts';
import { createLanguageRepo } from './i18n/language.repo.ts';
import { registerErrorHandling } from './plugins/errors.ts';
import { registerLanguage } from './plugins/language.ts';
import { registerNulCharacterGuard } from './plugins/nul-characters.ts';
import { registerRateLimit } from './plugins/rate-limit.ts';
import { registerSecurityHeaders } from './plugins/security-headers.ts';
import { registerWebApp } from './plugins/web-app.ts';
import { registerOpenApi } from './plugins/openapi.ts';
import { createNotificationsService } from './modules/notifications/notifications.service.ts';
import { healthRoutes } from './modules/health/health.routes.ts';
import { devOutboxRoutes } from './modules/dev/outbox.routes.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { createAuthRepo } from './modules/auth/auth.repo.ts';
import { communityRoutes } from './modules/community/community.routes.ts';
import { consultationsRoutes } from './modules/consultations/consultations.routes.ts';
import { analysisRoutes } from './modules/analysis/analysis.routes.ts';
import { trainingRoutes } from './modules/training/training.routes.ts';
import { trainingJobs } from './modules/training/training.jobs.ts';
import { consultationsJobs } from './modules/consultations/consultations.jobs.ts';
import { createServices } from './services.ts';
import { notificationsRoutes } from './modules/notifications/notifications.routes.ts';
import { dashboardRoutes } from './modules/dashboard/dashboard.routes.ts';
import { offlineModelRoutes } from './modules/offline-model/offline-model.routes.ts';
import { reviewRoutes } from './modules/review/review.routes.ts';
import { createVettingRepo } from './modules/vetting/vetting.repo.ts';
import { vettingRoutes } from './modules/vetting/vetting.routes.ts';
import { outbreakJobs } from './modules/outbreak/outbreak.jobs.ts';
import { followUpJobs } from './modules/followup/followup.jobs.ts';
import { deliveryJobs } from './modules/delivery/delivery.jobs.ts';
import { deliveryRoutes } from './modules/delivery/delivery.routes.ts';
import { createDeliveryService } from './modules/delivery/delivery.service.ts';
import { outbreakRoutes } from './modules/outbreak/outbreak.routes.ts';
import { ussdRoutes } from './modules/ussd/ussd.routes.ts';
import { withoutKey } from './modules/ussd/gateway-key.ts';
import { clinicRoutes } from './modules/clinic/clinic.routes.ts';
import {
  canonicalMetricsUrl,
  metricsRoutes,
  readinessRoutes,
  registerRequestIds,
} from './modules/operations/operations.routes.ts';
import { requestIdOf } from './lib/request-context.ts';
import { COMPRESSION } from './lib/json-text.ts';

export const MAX_UPLOAD_BYTES = 5 * 1024 * 1024;

export async function buildApp(deps: AppDeps): Promise<App> {
  const { config } = deps;
  const app = Fastify({
    logger: config.logLevel === 'silent' ? false : loggerOptions(config),
    bodyLimit: 1024 * 1024,
    // Only the configured proxies may set X-Forwarded-For (TRUST_PROXY; default none): docs/decisions/0008.
    trustProxy: trustedHops(config.trustProxy),
    // Operability (docs/decisions/0021): a proxy's X-Request-Id is kept, so it spans proxy, app and job logs.
    genReqId: requestIdOf,
    rewriteUrl: (req) => canonicalMetricsUrl(req.url ?? '/'),
  }).withTypeProvider<ZodTypeProvider>();
  registerRequestIds(app);

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerLanguage(app, { accountLanguage: createLanguageRepo(deps.database.db).ofUser });
  registerErrorHandling(app);
  registerNulCharacterGuard(app);

  await registerSecurityHeaders(app, { https: config.publicUrl.startsWith('https:') });
  await app.register(cors, {
    origin: config.corsOrigins.length ? config.corsOrigins : false,
    credentials: false,
    // Every method the API answers (the default is only GET, HEAD and POST).
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
  });
  await registerRateLimit(app, { max: config.rateLimitMax });
  // API JSON over 1 KiB is compressed per reply (COMPRESSION; a cached page keeps its compressed bytes,
  // lib/json-text.ts). The web app's files are compressed once at build time (web-app.ts). Notification
  // streams hijack the reply, so they are never buffered here.
  await app.register(compress, {
    global: true,
    threshold: COMPRESSION.threshold,
    encodings: [...COMPRESSION.encodings],
    brotliOptions: { params: COMPRESSION.brotliParams },
  });
  await app.register(multipart, { limits: { fileSize: MAX_UPLOAD_BYTES, files: 20, fields: 20, parts: 40 } });
  await registerOpenApi(app);

  const tokens = createAccessTokens(config.jwt.accessSecret, config.jwt.accessTtlSeconds);
  const authRepo = createAuthRepo(deps.database.db);
  const sessions = createLiveSessions((claims) => authRepo.sessionIsLive(claims));
  const experts = createExpertGate(createVettingRepo(deps.database.db).statusOf);
  await app.register(authPlugin, { tokens, sessions, experts });

  const coordinator = deps.coordinator ?? createMemoryCoordinator((msg, err) => app.log.error({ err }, msg));
  // Sessions ended through another process: forget them here too and close their streams.
  coordinator.on('session-revoked', (e) =>
    sessions.ended(e.sessionId ? { sessionId: e.sessionId } : { userId: e.userId }),
  );
  const notifications = createNotificationsService(deps.database.db, deps.clock, coordinator);
  const delivery = createDeliveryService(
    { db: deps.database.db, clock: deps.clock, sms: deps.sms, mailer: deps.mailer, coordinator, config },
    {
      leaseMs: config.deliveryLeaseSeconds * 1000,
      ...deps.deliveryOptions,
      log: (msg, err) => app.log.error({ err }, msg),
    },
  );
  const moduleDeps: ModuleDeps = {
    ...deps,
    coordinator,
    db: deps.database.db,
    tokens,
    sessions,
    lists: createListCaches(coordinator, deps.clock, (msg, err) => app.log.error({ err }, msg)),
    notifications,
    delivery,
    decodeLimiter: createDecodeLimiter(),
  };

  const services = createServices(moduleDeps, app.log);

  trainingJobs(app, moduleDeps, services);
  consultationsJobs(deps.jobs, services.availability);
  outbreakJobs(deps.jobs, services.outbreak);
  followUpJobs(deps.jobs, services.followUps);
  deliveryJobs(app, deps.jobs, delivery);

  healthRoutes(app, moduleDeps);
  readinessRoutes(app, { ...deps, metricsToken: config.metricsToken });
  metricsRoutes(app, { ...deps, metricsToken: config.metricsToken });
  if (!config.isProduction) devOutboxRoutes(app, moduleDeps);
  authRoutes(app, moduleDeps, services);
  communityRoutes(app, moduleDeps, services.community);
  consultationsRoutes(app, services);
  analysisRoutes(app, moduleDeps, services);
  trainingRoutes(app, moduleDeps, services);
  notificationsRoutes(app, moduleDeps, notifications);
  dashboardRoutes(app, services.dashboard);
  reviewRoutes(app, services.review);
  offlineModelRoutes(app, services.offlineModel);
  vettingRoutes(app, services.vetting);
  outbreakRoutes(app, services.outbreak);
  ussdRoutes(app, services.ussd, {
    secret: config.phone.callbackSecret,
    perNumberPerMinute: config.phone.rateLimitMax,
  });
  clinicRoutes(app, moduleDeps, services.clinic);
  deliveryRoutes(app, delivery);

  registerWebApp(app, config.webDist);
  return app;
}

/** The app's pino settings: a failing query's SQL and values never reach the log (lib/log-errors.ts). */
export function loggerOptions(config: Pick<Config, 'logLevel'>) {
  return {
    level: config.logLevel,
    redact: ['req.headers.authorization', 'req.headers.cookie'],
    // The gateway's callback URLs carry its secret as `?key=`: never written to the log.
    serializers: {
      req: (req: { method: string; url: string; hostname?: string; ip?: string }) => ({
        method: req.method,
        url: withoutKey(req.url),
        host: req.hostname,
        remoteAddress: req.ip,
      }),
    },
    hooks: errorLogHooks,
  };
}

/** A hop count as the function Fastify's types want (what Fastify does with a number itself). */
function trustedHops(setting: Config['trustProxy']) {
  if (typeof setting !== 'number') return setting;
  return (_address: string, hop: number) => hop < setting;
}
