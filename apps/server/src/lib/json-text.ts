import type { FastifyReply } from 'fastify';
import { z } from 'zod';

/**
 * A reply body encoded once by its response schema, exactly as the route's serializer would
 * (fastify-type-provider-zod: `z.encode`, then `JSON.stringify`), so a cached page is encoded once and
 * not per request (docs/decisions/0025).
 */
export type JsonText = { readonly json: string };

export function encodeJson<S extends z.ZodType>(schema: S, value: z.output<S>): JsonText {
  return { json: JSON.stringify(z.encode(schema, value)) };
}

/** Sends already encoded JSON: Fastify sends a string with a JSON content type as it is. */
export function sendJson(reply: FastifyReply, body: JsonText): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(body.json);
}
