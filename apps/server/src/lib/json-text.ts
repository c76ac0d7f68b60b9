import type { FastifyReply } from 'fastify';
import { z } from 'zod';

/**
 * A reply body encoded once by its response schema, exactly as the route's serializer would
 * (fastify-type-provider-zod: `z.encode`, then `JSON.stringify`), and once into UTF-8 bytes, so a
 * cached page is neither encoded nor converted per request (docs/decisions/0025, 0047): a history page
 * of 10 is about 75 KB, and turning that string into bytes on every reply was most of the route's CPU.
 */
export type JsonText = { readonly json: Buffer };

export function encodeJson<S extends z.ZodType>(schema: S, value: z.output<S>): JsonText {
  return { json: Buffer.from(JSON.stringify(z.encode(schema, value))) };
}

/** Sends already encoded JSON: Fastify sends a buffer as it is, with the type set here. */
export function sendJson(reply: FastifyReply, body: JsonText): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(body.json);
}
