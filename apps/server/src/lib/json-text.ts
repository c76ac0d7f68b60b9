import zlib from 'node:zlib';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';

/**
 * How API JSON is compressed (app.ts registers @fastify/compress with these): brotli at a cheap level
 * (lists shrink ~5×, which a 2G phone feels more than the server feels the CPU), else gzip, and
 * nothing under 1 KiB.
 */
export const COMPRESSION = {
  encodings: ['br', 'gzip'] as const,
  threshold: 1024,
  brotliParams: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 },
};
type Encoding = (typeof COMPRESSION.encodings)[number];

/**
 * A reply body encoded once by its response schema, exactly as the route's serializer would
 * (fastify-type-provider-zod: `z.encode`, then `JSON.stringify`), once into UTF-8 bytes, and once per
 * content encoding a client asks for, so a cached page costs neither encoding nor compressing per
 * request (docs/decisions/0025, 0047): a history page of 10 is about 75 KB, and turning that string
 * into bytes on every reply was most of the route's CPU; compressing it costs more still.
 */
export class JsonText {
  readonly json: Buffer;
  private readonly compressed = new Map<Encoding, Buffer>();
  constructor(json: Buffer) {
    this.json = json;
  }

  /** The body in `encoding`, compressed on first use and kept. */
  encoded(encoding: Encoding): Buffer {
    let bytes = this.compressed.get(encoding);
    if (!bytes) {
      bytes =
        encoding === 'br'
          ? zlib.brotliCompressSync(this.json, { params: COMPRESSION.brotliParams })
          : zlib.gzipSync(this.json);
      this.compressed.set(encoding, bytes);
    }
    return bytes;
  }
}

export function encodeJson<S extends z.ZodType>(schema: S, value: z.output<S>): JsonText {
  return new JsonText(Buffer.from(JSON.stringify(z.encode(schema, value))));
}

/**
 * The encoding to send in, from Accept-Encoding as @fastify/compress negotiates it: the highest
 * quality among ours (`*` stands for any, `x-gzip` is gzip), brotli first on a tie; none for q=0.
 */
export function negotiateEncoding(header: string | undefined): Encoding | undefined {
  if (!header) return undefined;
  const quality = new Map<string, number>();
  for (const part of header.toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    quality.set(name === 'x-gzip' ? 'gzip' : name, q ? Number(q.slice(2)) || 0 : 1);
  }
  let best: Encoding | undefined;
  let bestQ = 0;
  for (const encoding of COMPRESSION.encodings) {
    const q = quality.get(encoding) ?? quality.get('*') ?? 0;
    if (q > bestQ) [best, bestQ] = [encoding, q];
  }
  return best;
}

/**
 * Sends already encoded JSON. Compressed here from the kept bytes when the client takes it
 * (@fastify/compress passes a reply whose Content-Encoding is set as it is); otherwise as is.
 */
export function sendJson(reply: FastifyReply, body: JsonText): FastifyReply {
  reply.type('application/json; charset=utf-8');
  const headers = reply.request.headers;
  const encoding =
    body.json.length >= COMPRESSION.threshold && headers['x-no-compression'] === undefined
      ? negotiateEncoding(headers['accept-encoding'])
      : undefined;
  if (!encoding) return reply.send(body.json);
  const vary = reply.getHeader('vary');
  if (!vary) reply.header('vary', 'accept-encoding');
  else if (!String(vary).toLowerCase().includes('accept-encoding')) reply.header('vary', `${vary}, accept-encoding`);
  return reply.header('content-encoding', encoding).send(body.encoded(encoding));
}
