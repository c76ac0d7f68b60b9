import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { t as translate } from '../../src/i18n/i18n.ts';
import { loggerOptions } from '../../src/app.ts';
import { withoutQueryText } from '../../src/lib/log-errors.ts';
import { fixture, multipart } from '../support/photos.ts';
import { createTestApp, type TestContext } from '../support/app.ts';
import { createUser, type TestUser } from '../support/users.ts';
import { errorOf } from '../support/errors.ts';
import { api, communityApi, communityPath, reviewApi, analysisApi } from '@kutu/contract';

/** A NUL character in a JSON string once gave 500 (PostgreSQL text cannot hold it), and the log got the SQL. */
describe('NUL characters in requests', () => {
  let t: TestContext;
  let farmer: TestUser;
  let expert: TestUser;
  const nul = '\u0000';
  const english = translate('en', 'errors.nulCharacter');

  beforeAll(async () => {
    t = await createTestApp();
    farmer = await createUser(t, 'farmer');
    expert = await createUser(t, 'expert');
  });
  afterAll(() => t.close());

  const cases = () => [
    {
      name: 'login',
      url: api.auth.login,
      payload: { email: `jane${nul}@example.com`, password: 'x' },
      field: 'email',
    },
    {
      name: 'forgot-password',
      url: api.auth.forgotPassword,
      payload: { email: `a${nul}b@example.com` },
      field: 'email',
    },
    {
      name: 'a comment',
      url: communityPath(communityApi.responses, { postId: 1 }),
      payload: { content: `Spray early${nul} in the morning` },
      field: 'content',
      user: farmer,
    },
    {
      name: 'a review question',
      url: reviewApi.askPath(1),
      payload: { question: `Is it rust?${nul}` },
      field: 'question',
      user: farmer,
    },
    {
      name: 'a nested field',
      url: analysisApi.resources,
      payload: { title: 'Rust', texts: [{ body: `x${nul}` }] },
      field: 'texts.0.body',
      user: expert,
    },
    { name: 'an object key', url: api.auth.login, payload: { [`email${nul}`]: 'x' }, field: `email${nul}` },
  ];

  for (const c of cases()) {
    it(`refuses it in ${c.name} with 400, the field named and the reason given`, async () => {
      const { user, ...rest } = cases().find((x) => x.name === c.name)!;
      const res = await t.app.inject({ method: 'POST', url: rest.url, payload: rest.payload, headers: user?.headers });
      expect(res.statusCode, res.body).toBe(400);
      expect(errorOf(res)).toEqual({ code: 'VALIDATION_ERROR', message: english, fields: { [rest.field]: english } });
    });
  }

  it("refuses it in a query or a path, on any route, in the reader's language", async () => {
    const query = await t.app.inject({ url: `${api.health}?search=rust%00`, headers: { 'accept-language': 'sw' } });
    expect(query.statusCode).toBe(400);
    const swahili = translate('sw', 'errors.nulCharacter');
    expect(swahili).not.toBe(english);
    expect(errorOf(query)).toEqual({ code: 'VALIDATION_ERROR', message: swahili, fields: { search: swahili } });
    const path = await t.app.inject({ url: '/api/offline-model/v1%00/model.onnx', headers: farmer.headers });
    expect(path.statusCode).toBe(400);
    expect(errorOf(path).fields).toEqual({ version: english });
  });

  it('refuses it in a form sent as multipart (a post with or without its photo)', async () => {
    const fields = { title: `Rust${nul} on maize`, content: 'Orange spots on every leaf', crop_type: 'maize' };
    for (const files of [[], [{ filename: 'leaf.jpg', data: fixture('maize-common-rust.jpg') }]]) {
      const form = multipart(files, fields);
      const res = await t.app.inject({
        method: 'POST',
        url: communityApi.posts,
        payload: form.payload,
        headers: { ...farmer.headers, ...form.headers },
      });
      expect(res.statusCode, res.body).toBe(400);
      expect(errorOf(res)).toEqual({ code: 'VALIDATION_ERROR', message: english, fields: { title: english } });
    }
  });

  it('still takes ordinary text, escapes and all', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: api.auth.login,
      payload: { email: 'nobody\u00e9@example.com', password: 'tab\there' },
    });
    expect(res.statusCode).not.toBe(500);
    expect(errorOf(res).code).not.toBe('VALIDATION_ERROR');
  });

  it('a failing query is logged with its reason and where it failed, without the SQL or the values', async () => {
    let failure: unknown;
    try {
      await t.deps.database.db.execute(
        sql`select ${`secret-value${nul}`}::text as a from users where email = ${'jane.private@example.com'}`,
      );
    } catch (err) {
      failure = err;
    }
    expect(String((failure as Error).message)).toContain('from users where email');

    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _enc, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const app = Fastify({ logger: { ...loggerOptions({ logLevel: 'info' }), stream } });
    app.log.error({ err: failure }, 'unhandled error');
    app.log.child({ reqId: 'r1' }).error(failure as Error);
    app.log.error({ err: new Error('outer', { cause: failure }) }, 'job failed');
    await app.close();

    expect(lines).toHaveLength(3);
    for (const line of lines) {
      expect(line).not.toContain('from users');
      expect(line).not.toContain('jane.private');
      expect(line).not.toContain('secret-value');
      expect(line).toContain('invalid byte sequence');
    }
    const first = JSON.parse(lines[0]!);
    expect(first.err.message).toMatch(/^Failed query \(SQL and values left out of the log\): invalid byte sequence/);
    expect(first.err.stack).toMatch(/\n\s+at /);
    // An error with no query is logged as it is.
    const plain = new Error('plain');
    expect(withoutQueryText(plain)).toBe(plain);
  });
});
