import type { FastifyInstance } from 'fastify';
import { shortLinkTargets } from '@kutu/contract';

const ROW_ID = /^[1-9]\d{0,9}$/;

/**
 * The short addresses an SMS links to (the contract's `shortLinks`, docs/decisions/0058), sent on to the
 * web app's screens. A redirect on the server rather than a route of the web app: it costs the app's
 * first download nothing, and the screen it leads to asks for sign-in as it always does. Anything but a
 * row id falls through to the usual 404.
 */
export function registerShortLinks(app: FastifyInstance) {
  for (const { prefix, to } of shortLinkTargets) {
    app.get(`${prefix}:id`, { schema: { hide: true } }, async (req, reply) => {
      const { id } = req.params as { id: string };
      if (!ROW_ID.test(id) || Number(id) > 2_147_483_647) return reply.callNotFound();
      return reply.redirect(to(Number(id)), 302);
    });
  }
}
