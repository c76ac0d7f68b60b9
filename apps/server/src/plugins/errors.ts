import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { Language } from '@kutu/contract';
import { type MessageKey, t, translateContract } from '../i18n/i18n.ts';
import { AppError } from '../lib/errors.ts';

/** Per-field messages of a schema failure: the contract's English sentences, in `language`. */
function fieldsFromValidation(err: FastifyError, language: Language): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const v of err.validation ?? []) {
    const params = v.params as { issue?: { path?: (string | number)[] } } | undefined;
    const fromIssue = params?.issue?.path?.join('.');
    const fromPath = (v.instancePath ?? '').replace(/^\//, '').replaceAll('/', '.');
    const key = fromIssue || fromPath || 'body';
    fields[key] ??= v.message ? translateContract(language, v.message) : t(language, 'errors.invalidValue');
  }
  return fields;
}

/** Seconds a client is told to wait when it gets a 429 or a 503 without a more precise figure. */
const DEFAULT_RETRY_AFTER = { 429: 60, 503: 10 } as const;

/**
 * One error shape for every failure: { error: { code, message, fields? } }, written in the request's
 * language (`req.language()`, plugins/language.ts).
 */
export function registerErrorHandling(app: FastifyInstance) {
  // Every 429 and 503 says when to come back, whoever produced it (a limit, a full queue, the rate-limit plugin).
  app.addHook('onSend', async (_req, reply) => {
    const status = reply.statusCode;
    if ((status === 429 || status === 503) && !reply.hasHeader('retry-after')) {
      reply.header('retry-after', String(DEFAULT_RETRY_AFTER[status]));
    }
  });
  app.setErrorHandler(async (err: FastifyError, req, reply) => {
    const language = await req.language();
    const say = (key: MessageKey) => t(language, key);
    if (err instanceof AppError && err.retryAfterSeconds !== undefined) {
      reply.header('retry-after', String(Math.max(1, Math.ceil(err.retryAfterSeconds))));
    }
    if (err instanceof AppError) {
      const { message, fields } = err.localized(language);
      return reply.status(err.status).send({
        error: { code: err.code, message, ...(fields && { fields }), ...(err.signup && { signup: err.signup }) },
      });
    }
    if (hasZodFastifySchemaValidationErrors(err) || err.validation) {
      const fields = fieldsFromValidation(err, language);
      const first = Object.values(fields)[0];
      return reply.status(400).send({
        error: { code: 'VALIDATION_ERROR', message: first ?? say('errors.invalidFields'), fields },
      });
    }
    const status = err.statusCode ?? 500;
    if (status === 429) {
      return reply.status(429).send({ error: { code: 'RATE_LIMITED', message: say('errors.tooManyRequests') } });
    }
    if (status === 413 || err.code === 'FST_REQ_FILE_TOO_LARGE' || err.code === 'FST_FILES_LIMIT') {
      return reply.status(413).send({ error: { code: 'PAYLOAD_TOO_LARGE', message: say('errors.payloadTooLarge') } });
    }
    if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || status === 415) {
      return reply
        .status(415)
        .send({ error: { code: 'UNSUPPORTED_MEDIA_TYPE', message: say('errors.unsupportedMediaType') } });
    }
    if (status >= 400 && status < 500) {
      const invalidJson = err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || err.name === 'SyntaxError';
      const empty = err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY';
      // Any other of Fastify's own refusals (a Content-Length that does not match the body, a body that
      // does not decompress) is rare and technical: one sentence for the reader, Fastify's words in the log.
      if (!invalidJson && !empty) req.log.info({ err }, 'request refused');
      const message = say(invalidJson ? 'errors.invalidJson' : empty ? 'errors.emptyBody' : 'errors.badRequest');
      return reply.status(status).send({ error: { code: 'BAD_REQUEST', message } });
    }
    req.log.error({ err }, 'unhandled error');
    return reply.status(500).send({ error: { code: 'INTERNAL_ERROR', message: say('errors.internal') } });
  });
}
