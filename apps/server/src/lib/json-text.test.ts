import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyses } from '../db/schema/index.ts';
import { createTestApp, type TestContext } from '../../test/support/app.ts';
import { createUser, type TestUser } from '../../test/support/users.ts';
import { encodeJson, negotiateEncoding } from './json-text.ts';
import { z } from 'zod';
import { analysisApi } from '@kutu/contract';

describe('choosing the content encoding', () => {
  it('takes brotli, else gzip, as the client allows', () => {
    expect(negotiateEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(negotiateEncoding('gzip, deflate')).toBe('gzip');
    expect(negotiateEncoding('x-gzip')).toBe('gzip');
    expect(negotiateEncoding('br;q=0, gzip')).toBe('gzip');
    expect(negotiateEncoding('br;q=0.5, gzip;q=0.8')).toBe('gzip');
    expect(negotiateEncoding('*')).toBe('br');
    expect(negotiateEncoding('*;q=0')).toBeUndefined();
    expect(negotiateEncoding('identity')).toBeUndefined();
    expect(negotiateEncoding('deflate')).toBeUndefined();
    expect(negotiateEncoding(undefined)).toBeUndefined();
  });

  it('compresses an encoded body once per encoding and keeps it', () => {
    const body = encodeJson(z.object({ text: z.string() }), { text: 'Kutu °C – '.repeat(200) });
    const br = body.encoded('br');
    expect(body.encoded('br')).toBe(br);
    expect(zlib.brotliDecompressSync(br).equals(body.json)).toBe(true);
    expect(zlib.gunzipSync(body.encoded('gzip')).equals(body.json)).toBe(true);
  });
});

describe('a cached history page sent compressed', () => {
  let t: TestContext;
  let farmer: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    farmer = await createUser(t, 'farmer');
    await t.deps.database.db.insert(analyses).values(
      Array.from({ length: 12 }, (_, i) => ({
        userId: farmer.id,
        imagePath: `analyses/test/${i}.jpg`,
        outcome: 'diagnosis' as const,
        rustClass: 'common_rust',
        confidence: 0.9,
        probabilities: { common_rust: 0.9, healthy: 0.05, other_disease: 0.05 },
        modelVersion: 'test',
        createdAt: new Date(Date.now() - i * 3600_000),
      })),
    );
  });
  afterAll(() => t.close());

  const history = (acceptEncoding?: string) =>
    t.app.inject({
      url: analysisApi.list,
      headers: { ...farmer.headers, ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}) },
    });

  it('answers the same JSON in brotli, gzip and plain, with its length and Vary', async () => {
    const plain = await history();
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(plain.body).results).toHaveLength(10);
    for (const [accept, encoding, decode] of [
      ['gzip, deflate, br', 'br', zlib.brotliDecompressSync],
      ['gzip', 'gzip', zlib.gunzipSync],
    ] as const) {
      for (const round of [1, 2]) {
        const res = await history(accept);
        expect(res.statusCode, `${encoding} ${round}`).toBe(200);
        expect(res.headers['content-encoding']).toBe(encoding);
        expect(res.headers.vary).toContain('accept-encoding');
        expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
        expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
        expect(decode(res.rawPayload).toString()).toBe(plain.body);
      }
    }
  });
});
