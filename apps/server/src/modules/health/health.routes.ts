import { z } from 'zod';
import { api } from '@kutu/contract';
import type { App, ModuleDeps } from '../../deps.ts';
import { publicRoute } from '../../lib/route-schema.ts';

export function healthRoutes(app: App, { deps: { database } }: { deps: Pick<ModuleDeps, 'database'> }) {
  app.get(
    api.health,
    {
      config: publicRoute,
      schema: {
        tags: ['health'],
        response: { 200: z.object({ status: z.literal('ok'), database: z.string() }), 503: z.any() },
      },
    },
    async (_req, reply) => {
      const up = await database.ping().catch(() => false);
      if (!up) {
        return reply
          .status(503)
          .send({ error: { code: 'SERVICE_UNAVAILABLE', message: 'The database is not reachable' } });
      }
      return { status: 'ok' as const, database: `up (${database.kind})` };
    },
  );
}
