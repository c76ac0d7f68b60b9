import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../support/app.ts';

type Operation = { security?: Record<string, string[]>[] };

/**
 * Every /api route says who may call it (`config: guard(…)` or `config: publicRoute`, lib/route-schema.ts),
 * and the document's `security` is derived from that, so it is held to what the server does: every operation it calls public answers a caller without a token
 * with something other than 401, and every one that needs a bearer token answers 401.
 */
describe('OpenAPI security declarations match the server', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('every /api route says who may call it (see plugins/auth.test.ts for one that does not)', () => {
    expect(t.app.routeAccessProblems()).toEqual([]);
  });

  it('public operations work without a token; bearer operations refuse a caller without one', async () => {
    const doc = (await t.app.inject({ url: '/api/docs/json' })).json() as {
      paths: Record<string, Record<string, Operation>>;
    };
    const seen = { public: 0, bearer: 0 };
    for (const [p, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        expect(op.security, `${method} ${p}`).toBeDefined();
        const url = p.replace(/\{[^}]+\}/g, '1');
        const res = await t.app.inject({ method: method.toUpperCase() as 'GET', url });
        const bearer = op.security!.some((s) => 'bearer' in s);
        if (bearer) expect(res.statusCode, `${method} ${p}`).toBe(401);
        else expect(res.statusCode, `${method} ${p}`).not.toBe(401);
        seen[bearer ? 'bearer' : 'public'] += 1;
      }
    }
    expect(seen.public).toBeGreaterThanOrEqual(12);
    expect(seen.bearer).toBeGreaterThan(50);
  });
});
