import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { t as say } from '../i18n/i18n.ts';
import { createTestApp, type TestContext } from '../../test/support/app.ts';
import { createUser, type TestUser } from '../../test/support/users.ts';
import { trainingApi } from '@kutu/contract';

/** A JSON route behind sign-in: Fastify reads the body after the caller is known. */
const URL = trainingApi.fromAnalysis;

describe("Fastify's own refusals, in the reader's language", () => {
  let t: TestContext;
  let swahili: TestUser;
  let english: TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    swahili = await createUser(t, 'expert', { language: 'sw' });
    english = await createUser(t, 'expert');
  });
  afterAll(() => t.close());

  const post = (who: TestUser, headers: Record<string, string>, payload: string | Buffer) =>
    t.app.inject({ method: 'POST', url: URL, headers: { ...who.headers, ...headers }, payload });
  const json = { 'content-type': 'application/json' };

  it("answers malformed JSON, an empty body, a wrong type and a large body in the account's language, codes unchanged", async () => {
    const cases = [
      { headers: json, payload: '{"analysis_id": ', status: 400, code: 'BAD_REQUEST', key: 'errors.invalidJson' },
      { headers: json, payload: '', status: 400, code: 'BAD_REQUEST', key: 'errors.emptyBody' },
      {
        headers: { 'content-type': 'text/csv' },
        payload: 'a,b',
        status: 415,
        code: 'UNSUPPORTED_MEDIA_TYPE',
        key: 'errors.unsupportedMediaType',
      },
      {
        headers: json,
        payload: JSON.stringify({ analysis_id: 1, label: 'healthy', pad: 'x'.repeat(1024 * 1024) }),
        status: 413,
        code: 'PAYLOAD_TOO_LARGE',
        key: 'errors.payloadTooLarge',
      },
      // A body that does not decompress: one of Fastify's rarer refusals, told in one general sentence.
      {
        headers: { ...json, 'content-encoding': 'gzip' },
        payload: 'not gzip',
        status: 400,
        code: 'BAD_REQUEST',
        key: 'errors.badRequest',
      },
    ] as const;
    for (const c of cases) {
      // The browser asks for English; the account's language decides.
      const sw = await post(swahili, { ...c.headers, 'accept-language': 'en' }, c.payload);
      expect(sw.statusCode, `${c.key}: ${sw.body}`).toBe(c.status);
      expect(sw.json()).toEqual({ error: { code: c.code, message: say('sw', c.key) } });
      const en = await post(english, c.headers, c.payload);
      expect(en.json()).toEqual({ error: { code: c.code, message: say('en', c.key) } });
    }
    expect(say('sw', 'errors.invalidJson')).not.toBe(say('en', 'errors.invalidJson'));
  });

  it('answers an unknown API route with a 404 in the browser language (no caller is known there)', async () => {
    const res = await t.app.inject({ url: '/api/no-such-thing/', headers: { 'accept-language': 'sw' } });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      error: { code: 'NOT_FOUND', message: 'Hakuna njia ya GET /api/no-such-thing/' },
    });
    const en = await t.app.inject({ method: 'DELETE', url: '/api/no-such-thing/' });
    expect(en.json().error.message).toBe('No route for DELETE /api/no-such-thing/');
  });
});
