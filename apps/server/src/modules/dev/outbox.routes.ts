import { z } from 'zod';
import { api, deliveryChannels } from '@kutu/contract';
import type { App } from '../../deps.ts';
import type { RouteContext } from '../../route-context.ts';
import { publicRoute } from '../../lib/route-schema.ts';
import { fromThisMachine } from '../../lib/this-machine.ts';

const entry = z.object({
  channel: z.enum(deliveryChannels),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  sentAt: z.string(),
});

/**
 * Development only: the latest emails and SMS the app sent, newest first, codes and reset links
 * included (docs/decisions/0125). Not registered in production nor with a real mail or SMS transport
 * (config.devOutboxOff); otherwise answered only to a client on this machine that no proxy relayed,
 * and 404, as if there were no such route, to anyone else.
 */
export function devOutboxRoutes(app: App, { deps: { outbox, config } }: RouteContext) {
  if (config.devOutboxOff) return;
  app.get(
    api.devOutbox,
    { config: publicRoute, schema: { tags: ['dev'], response: { 200: z.object({ results: z.array(entry) }) } } },
    async (req, reply) => {
      // The same answer as a path that names no route, so the route is not even seen to exist.
      if (!fromThisMachine(req)) return reply.callNotFound();
      return { results: outbox.list() };
    },
  );
}
