import { IDEMPOTENCY_KEY_HEADER, idempotencyKey } from '@kutu/contract';
import type { FastifyRequest } from 'fastify';
import { contractMessage } from '../i18n/i18n.ts';
import { badRequest } from './errors.ts';

/** The request's optional `Idempotency-Key` header; a malformed one is refused (400) rather than ignored. */
export function readIdempotencyKey(req: Pick<FastifyRequest, 'headers'>): string | undefined {
  const header = req.headers[IDEMPOTENCY_KEY_HEADER.toLowerCase()];
  if (header === undefined) return undefined;
  const parsed = idempotencyKey.safeParse(Array.isArray(header) ? header.join(',') : header);
  const problem = parsed.error?.issues[0]?.message;
  if (!parsed.success) throw badRequest(problem ? contractMessage(problem) : 'errors.upload.invalidIdempotencyKey');
  return parsed.data;
}
