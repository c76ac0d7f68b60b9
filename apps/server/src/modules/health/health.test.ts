import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/support/app.ts';
import { api } from '@kutu/contract';

describe('health and error shape', () => {
  let t: TestContext;
  beforeAll(async () => {
    // The dev outbox is served only while mail is only logged (the SMTP peer still receives each email).
    t = await createTestApp({ env: { MAIL_TRANSPORT: 'log' } });
  });
  afterAll(() => t.close());

  it('reports the database as up', async () => {
    const res = await t.app.inject({ method: 'GET', url: api.health });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ok', database: expect.stringMatching(/^up/) });
  });

  it('answers unknown routes with the one error shape', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/nope/' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: { code: 'NOT_FOUND', message: expect.any(String) } });
  });

  it('lists sent messages in the dev outbox outside production', async () => {
    await t.deps.sms.send('+256700000001', 'hello');
    const res = await t.app.inject({ method: 'GET', url: api.devOutbox });
    expect(res.json().results[0]).toMatchObject({ channel: 'sms', to: '+256700000001', text: 'hello' });
  });

  it('serves OpenAPI docs', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    expect(res.json().paths[api.health]).toBeDefined();
  });
});
