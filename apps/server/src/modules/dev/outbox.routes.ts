import { z } from 'zod';
import { api, deliveryChannels } from '@kutu/contract';
import type { App } from '../../deps.ts';
import type { RouteContext } from '../../route-context.ts';
import { publicRoute } from '../../lib/route-schema.ts';

const entry = z.object({
  channel: z.enum(deliveryChannels),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  sentAt: z.string(),
});

/** Development only: the latest emails and SMS the app sent, newest first. */
export function devOutboxRoutes(app: App, { deps: { outbox, config } }: RouteContext) {
  if (config.isProduction) return;
  app.get(
    api.devOutbox,
    { config: publicRoute, schema: { tags: ['dev'], response: { 200: z.object({ results: z.array(entry) }) } } },
    async () => ({ results: outbox.list() }),
  );
}
