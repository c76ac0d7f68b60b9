import Fastify from 'fastify';
import compress from '@fastify/compress';
import cors from '@fastify/cors';
import multipart from '@fastify/multipart';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { App, AppDeps } from './deps.ts';
import type { Config } from './config.ts';
import { createMemoryCoordinator } from './adapters/coordinator.ts';
import { createDecodeLimiter } from './lib/decode-limiter.ts';
import { errorLogHooks } from './lib/log-errors.ts';
import { createListCaches } from './lib/list-cache.ts';
import { createApprovalGate } from './lib/approval-gate.ts';
import { createLiveSessions } from './lib/live-sessions.ts';
import { createAccessTokens } from './lib/tokens.ts';
import { authPlugin } from './plugins/auth.ts';
import { createLanguageRepo } from './lib/language.repo.ts';
import { registerErrorHandling } from './plugins/errors.ts';
import { registerLanguage } from './plugins/language.ts';
import { registerNulCharacterGuard } from './plugins/nul-characters.ts';
import { registerRateLimit } from './plugins/rate-limit.ts';
import { registerSecurityHeaders } from './plugins/security-headers.ts';
import { registerShortLinks } from './plugins/short-links.ts';
import { registerWebApp } from './plugins/web-app.ts';
import { registerOpenApi } from './plugins/openapi.ts';
import { createAuthRepo } from './modules/auth/auth.repo.ts';
import { createServices } from './services.ts';
import { createSpeech } from './adapters/speech.ts';
import { createVoiceCalls } from './adapters/voice-calls.ts';
import { createOpenMeteo, noWeather } from './adapters/weather.ts';
import { jobModules, routeModules } from './routes.ts';
import { createApplicationsRepo } from './modules/vetting/applications.repo.ts';
import { GATE_REFUSALS } from './modules/vetting/approval-roles.ts';
import { withoutKey } from './lib/gateway-key.ts';
import { canonicalMetricsUrl, registerRequestIds } from './modules/operations/operations.routes.ts';
import { requestIdOf } from './adapters/request-context.ts';
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
  const approvals = createApprovalGate(createApplicationsRepo(deps.database.db).statusOf, GATE_REFUSALS);
  await app.register(authPlugin, { tokens, sessions, approvals });

  const coordinator = deps.coordinator ?? createMemoryCoordinator((msg, err) => app.log.error({ err }, msg));
  // Sessions ended through another process: forget them here too and close their streams.
  coordinator.on('session-revoked', (e) => {
    sessions.ended(e.sessionId ? { sessionId: e.sessionId } : { userId: e.userId });
    // Every session of the user ended: an approval may have been withdrawn, so the gates ask again.
    if (!e.sessionId) approvals.forget(e.userId);
  });
  const { deps: moduleDeps, services } = createServices(
    {
      ...deps,
      coordinator,
      calls: deps.calls ?? createVoiceCalls({ ...config.voice, log: app.log }),
      speech: deps.speech ?? createSpeech(),
      weather:
        deps.weather ??
        (config.weather.url === 'off'
          ? noWeather
          : createOpenMeteo({ url: config.weather.url, timeoutMs: config.weather.timeoutMs })),
      db: deps.database.db,
      tokens,
      sessions,
      lists: createListCaches(coordinator, deps.clock, (msg, err) => app.log.error({ err }, msg)),
      decodeLimiter: createDecodeLimiter(),
    },
    app.log,
  );
  // One list, one signature (docs/decisions/0056): a new module adds its function to routes.ts.
  const context = { deps: moduleDeps, services };
  for (const register of jobModules) register(app, context);
  for (const register of routeModules) register(app, context);

  registerShortLinks(app);
  registerWebApp(app, config.webDist);
  return app;
}

/** The app's pino settings: a failing query's SQL and values never reach the log (lib/log-errors.ts). */
export function loggerOptions(config: Pick<Config, 'logLevel'>) {
  return {
    level: config.logLevel,
    redact: ['req.headers.authorization', 'req.headers.cookie'],
    // The gateway's callback URLs carry its secrets (`?key=`, `?secret=`): never written to the log.
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
