import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { AppError, forbidden } from './errors.ts';
import { createWrongSecretLimit, type WrongSecretLimit } from './secret-tries.ts';

const digest = (s: string) => createHash('sha256').update(s).digest();

/**
 * Only the gateway may call the phone callbacks: it sends the shared secret (AT_CALLBACK_SECRET) as the
 * `key` query parameter of the callback URL it was given (Africa's Talking cannot add headers), or as
 * the X-Callback-Key header. Compared in constant time (both hashed to one length first); wrong ones are
 * counted per address and cut off, the right one never (`limit`). Without a secret configured (development) the callbacks
 * answer 503.
 */
export function gatewayKeyCheck(secret: string | undefined, limit: WrongSecretLimit = createWrongSecretLimit()) {
  return async (req: FastifyRequest) => {
    if (!secret) throw new AppError('SERVICE_UNAVAILABLE', 'errors.phone.notConfigured', 503);
    const header = req.headers['x-callback-key'];
    const query = (req.query as { key?: unknown } | undefined)?.key;
    const given = typeof header === 'string' ? header : typeof query === 'string' ? query : '';
    // A wrong secret is counted per address, and past the limit answered 429; the right one always passes
    // (lib/secret-tries.ts): the gateway shares its addresses with others.
    try {
      limit.assertRight(req.ip, timingSafeEqual(digest(given), digest(secret)));
    } catch (err) {
      throw err instanceof AppError && err.status === 403 ? forbidden('errors.phone.badKey') : err;
    }
  };
}

/**
 * The request's URL without the gateway's secrets, for the log: the callbacks' `key` and the delivery
 * reports' `secret` (SMS_REPORT_SECRET), however the parameter name is cased.
 */
export const withoutKey = (url: string) => url.replace(/([?&](?:key|secret)=)[^&]*/gi, '$1[redacted]');
