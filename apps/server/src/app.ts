import Fastify from 'fastify';
import cors from '@fastify/cors';
import multipart from '@fastify/multipart';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { App, AppDeps, ModuleDeps } from './deps.ts';
import type { Config } from './config.ts';
import { createDecodeLimiter } from './lib/decode-limiter.ts';
import { createAccessTokens } from './lib/tokens.ts';
import { authPlugin } from './plugins/auth.ts';
import { registerErrorHandling } from './plugins/errors.ts';
import { registerRateLimit } from './plugins/rate-limit.ts';
import { registerSecurityHeaders } from './plugins/security-headers.ts';
import { registerWebApp } from './plugins/web-app.ts';
import { createNotificationsService } from './modules/notifications/notifications.service.ts';
import { healthRoutes } from './modules/health/health.routes.ts';
import { devOutboxRoutes } from './modules/dev/outbox.routes.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { createAuthRepo } from './modules/auth/auth.repo.ts';
import { communityRoutes } from './modules/community/community.routes.ts';
import { consultationsRoutes } from './modules/consultations/consultations.routes.ts';
import { analysisRoutes } from './modules/analysis/analysis.routes.ts';
import { trainingRoutes } from './modules/training/training.routes.ts';
import { notificationsRoutes } from './modules/notifications/notifications.routes.ts';
import { dashboardRoutes } from './modules/dashboard/dashboard.routes.ts';
import { reviewRoutes } from './modules/review/review.routes.ts';

export const MAX_UPLOAD_BYTES = 5 * 1024 * 1024;

export async function buildApp(deps: AppDeps): Promise<App> {
  const { config } = deps;
  const app = Fastify({
    logger:
      config.logLevel === 'silent'
        ? false
        : { level: config.logLevel, redact: ['req.headers.authorization', 'req.headers.cookie'] },
    bodyLimit: 1024 * 1024,
    // Only the configured proxies may set X-Forwarded-For (TRUST_PROXY; default none): docs/decisions/0008.
    trustProxy: trustedHops(config.trustProxy),
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);

  await registerSecurityHeaders(app, { https: config.publicUrl.startsWith('https:') });
  await app.register(cors, { origin: config.corsOrigins.length ? config.corsOrigins : false, credentials: false });
  await registerRateLimit(app, { max: config.rateLimitMax });
  await app.register(multipart, { limits: { fileSize: MAX_UPLOAD_BYTES, files: 20, fields: 20, parts: 40 } });
  await app.register(swagger, {
    openapi: {
      info: { title: 'Kutu API', version: '0.1.0', description: 'Detect Early · Act Fast · Grow Smart' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });

  const tokens = createAccessTokens(config.jwt.accessSecret, config.jwt.accessTtlSeconds);
  const sessions = createAuthRepo(deps.database.db);
  await app.register(authPlugin, { tokens, sessionIsLive: (claims) => sessions.sessionIsLive(claims) });

  const moduleDeps: ModuleDeps = {
    ...deps,
    db: deps.database.db,
    tokens,
    notifications: createNotificationsService(deps.database.db, deps.clock),
    decodeLimiter: createDecodeLimiter(),
  };

  healthRoutes(app, moduleDeps);
  if (!config.isProduction) devOutboxRoutes(app, moduleDeps);
  authRoutes(app, moduleDeps);
  communityRoutes(app, moduleDeps);
  consultationsRoutes(app, moduleDeps);
  analysisRoutes(app, moduleDeps);
  trainingRoutes(app, moduleDeps);
  notificationsRoutes(app, moduleDeps);
  dashboardRoutes(app, moduleDeps);
  reviewRoutes(app, moduleDeps);

  registerWebApp(app, config.webDist);
  return app;
}

/** A hop count as the function Fastify's types want (what Fastify does with a number itself). */
function trustedHops(setting: Config['trustProxy']) {
  if (typeof setting !== 'number') return setting;
  return (_address: string, hop: number) => hop < setting;
}
