import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';

/**
 * The global per-address limit covers the API only. The web app's files (the SPA shell and its hashed
 * assets) are cheap and many per page load: counting them let a few reloads from one shared address
 * (carrier NAT, co-op Wi-Fi) turn CSS and JS into JSON 429s and a blank page.
 */
export async function registerRateLimit(app: FastifyInstance, opts: { max: number }) {
  await app.register(rateLimit, {
    max: opts.max,
    timeWindow: '1 minute',
    allowList: (req) => !req.url.startsWith('/api/'),
  });
}
