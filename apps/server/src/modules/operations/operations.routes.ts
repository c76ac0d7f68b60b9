import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Database } from '../../db/client.ts';
import type { FileStorage } from '../../adapters/storage.ts';
import type { JobQueue } from '../../adapters/jobs.ts';
import type { ClassifierHolder } from '../../adapters/classifier.ts';
import type { Config } from '../../config.ts';
import { runWithRequestId } from '../../adapters/request-context.ts';
import { publicRoute } from '../../lib/route-schema.ts';
import { fromThisMachine } from '../../lib/this-machine.ts';
import { httpRequests, messagesWaiting, modelInfo, queueDepth, registry, trainingJobs } from '../../lib/metrics.ts';
import { createOperationsRepo } from './operations.repo.ts';

export const READINESS_PATH = '/api/health/ready/';
export const METRICS_PATH = '/metrics';

export interface OperationsDeps {
  database: Database;
  storage: FileStorage;
  classifier: ClassifierHolder;
  jobs: JobQueue;
  /**
   * `metricsToken`: bearer token for /metrics; without one, only loopback clients may read it, and only
   * when no proxy is configured (`trustProxy`).
   */
  config: Pick<Config, 'metricsToken' | 'trustProxy'>;
}

/** Readiness and metrics, for the app and for the worker's probe server alike (server.ts). */
export function operationsRoutes(app: FastifyInstance, { deps }: { deps: OperationsDeps }) {
  readinessRoutes(app, deps);
  metricsRoutes(app, deps);
}

/** Each request's id in its logs, in the `X-Request-Id` reply header and in the jobs it queues. */
export function registerRequestIds(app: FastifyInstance) {
  app.addHook('onRequest', (req, reply, done) => {
    reply.header('x-request-id', req.id);
    runWithRequestId(req.id, done);
  });
}

/** Readiness: 200 only when database, storage and model all work (a load balancer's check). */
function readinessRoutes(app: FastifyInstance, deps: OperationsDeps) {
  const check = async (fn: () => Promise<unknown>) => {
    try {
      await fn();
      return 'ok';
    } catch (err) {
      return `failed: ${err instanceof Error ? err.message : String(err)}`.slice(0, 200);
    }
  };
  app.get(
    READINESS_PATH,
    {
      config: publicRoute,
      schema: {
        tags: ['health'],
        summary: 'Readiness: database, storage and model',
        description: '503 with the failing part when this process cannot serve requests yet.',
        response: {
          200: z.object({ status: z.literal('ready'), checks: z.record(z.string(), z.string()) }),
          503: z.object({ status: z.literal('not_ready'), checks: z.record(z.string(), z.string()) }),
        },
      },
    },
    async (_req, reply) => {
      const [database, storage, model] = await Promise.all([
        check(async () => {
          if (!(await deps.database.ping())) throw new Error('no answer');
        }),
        check(() => deps.storage.check()),
        check(async () => {
          if (!deps.classifier.current().version) throw new Error('no model loaded');
        }),
      ]);
      const checks = { database, storage, model: model === 'ok' ? deps.classifier.current().version : model };
      const ready = database === 'ok' && storage === 'ok' && model === 'ok';
      return ready
        ? { status: 'ready' as const, checks }
        : reply.status(503).send({ status: 'not_ready' as const, checks });
    },
  );
}

/**
 * Without METRICS_TOKEN, only a client on this machine, talking to this process itself (docs/decisions/0028):
 * the socket's address must be loopback, never X-Forwarded-For, AND the request must not have come through a
 * proxy, since a proxy on the same host (Caddy in front of one process) connects from loopback for everyone.
 * A proxy that adds no header (nginx's default) cannot be told apart: with a proxy configured (TRUST_PROXY),
 * the token is required.
 */
function metricsAllowed(req: FastifyRequest, token: string | undefined, behindProxy: boolean): boolean {
  if (token) {
    const given = Buffer.from(req.headers.authorization ?? '');
    const wanted = Buffer.from(`Bearer ${token}`);
    return given.length === wanted.length && timingSafeEqual(given, wanted);
  }
  if (behindProxy) return false;
  return fromThisMachine(req);
}

/**
 * Fastify's `rewriteUrl`: every spelling of /metrics (/metrics/, /METRICS, //metrics, /%6detrics) is
 * /metrics, so it meets the same check instead of slipping past a proxy's rule for the one spelling
 * (or being answered by the web app's fallback page).
 */
export function canonicalMetricsUrl(url: string): string {
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  if (path === METRICS_PATH) return url;
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return url;
  }
  return /^\/+metrics\/*$/i.test(decoded) ? METRICS_PATH + (q === -1 ? '' : url.slice(q)) : url;
}

/** Prometheus metrics of this process at /metrics (text format), and the per-route request timings. */
function metricsRoutes(app: FastifyInstance, deps: OperationsDeps) {
  const repo = createOperationsRepo(deps.database);
  app.addHook('onResponse', async (req, reply) => {
    const route = req.routeOptions.url;
    if (!route || route === METRICS_PATH) return;
    httpRequests.observe({ route, method: req.method, status: String(reply.statusCode) }, reply.elapsedTime / 1000);
  });
  app.get(METRICS_PATH, { schema: { hide: true }, config: { rateLimit: false } }, async (req, reply) => {
    if (!metricsAllowed(req, deps.config.metricsToken, deps.config.trustProxy !== false)) {
      return reply.status(403).send({ error: { code: 'FORBIDDEN', message: 'Metrics need METRICS_TOKEN' } });
    }
    modelInfo.reset();
    modelInfo.set({ version: deps.classifier.current().version }, 1);
    queueDepth.reset();
    for (const [queue, n] of Object.entries(await deps.jobs.depth().catch(() => ({})))) queueDepth.set({ queue }, n);
    trainingJobs.reset();
    for (const r of await repo.jobsByStatus()) trainingJobs.set({ status: r.status }, r.n);
    messagesWaiting.reset();
    for (const r of await repo.messagesWaiting()) messagesWaiting.set({ channel: r.channel, state: r.state }, r.n);
    return reply.header('content-type', registry.contentType).send(await registry.metrics());
  });
}
