import type { FastifyInstance } from 'fastify';
import { idParam, shortLinkTargets } from '@kutu/contract';

/**
 * The short addresses an SMS links to (the contract's `shortLinks`, docs/decisions/0058), sent on to the
 * web app's screens. A redirect on the server rather than a route of the web app: it costs the app's
 * first download nothing, and the screen it leads to asks for sign-in as it always does. Anything but a
 * row id written plainly (one address per row: `007` is not `7`) falls through to the usual 404.
 */
export function registerShortLinks(app: FastifyInstance) {
  for (const { prefix, to } of shortLinkTargets) {
    app.get(`${prefix}:id`, { schema: { hide: true } }, async (req, reply) => {
      const parsed = idParam.safeParse(req.params);
      if (!parsed.success || String(parsed.data.id) !== (req.params as { id: string }).id) return reply.callNotFound();
      return reply.redirect(to(parsed.data.id), 302);
    });
  }
}
