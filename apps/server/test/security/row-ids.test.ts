import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ROW_ID } from '@kutu/contract';
import { createTestApp, type TestContext } from '../helpers.ts';
import { createUser, type TestUser } from '../users.ts';

/** Issue 15 L1: ids beyond int4 gave 500 on four routes. Every route with a path parameter is tried. */
describe('path ids beyond int4', () => {
  let t: TestContext;
  let farmer: TestUser;
  let expert: TestUser;
  let admin: TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    farmer = await createUser(t, 'farmer');
    expert = await createUser(t, 'expert');
    admin = await createUser(t, 'admin');
  });
  afterAll(() => t.close());

  /** Every route with a `{param}` from the app's own route table (the OpenAPI document it builds). */
  function routesWithParams(): { method: string; path: string; params: string[] }[] {
    const doc = t.app.swagger() as { paths: Record<string, Record<string, unknown>> };
    const routes = [];
    for (const [pattern, operations] of Object.entries(doc.paths)) {
      const params = [...pattern.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      if (params.length === 0) continue;
      for (const method of Object.keys(operations))
        routes.push({ method: method.toUpperCase(), path: pattern, params });
    }
    return routes;
  }

  it('finds the routes it must cover', () => {
    const paths = routesWithParams().map((r) => `${r.method} ${r.path}`);
    expect(paths).toContain('GET /api/rust-detection/{id}/');
    expect(paths).toContain('GET /api/community/posts/{id}/');
    expect(paths.length).toBeGreaterThan(15);
  });

  for (const id of [String(MAX_ROW_ID + 1), '99999999999999999999']) {
    it(`answers id ${id} with 400 or 404 in the API's error shape on every route, never 500`, async () => {
      for (const route of routesWithParams()) {
        const url = route.params.reduce((u, p) => u.replace(`{${p}}`, id), route.path);
        let checked = false;
        for (const user of [farmer, expert, admin]) {
          const res = await t.app.inject({
            method: route.method as 'GET',
            url,
            headers: user.headers,
            ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { payload: {} }),
          });
          const where = `${route.method} ${url} as ${user.role}: ${res.body}`;
          expect(res.statusCode, where).toBeLessThan(500);
          const body = res.json() as { error?: { code: string; message: string; fields?: Record<string, string> } };
          expect(body.error, where).toMatchObject({ code: expect.any(String), message: expect.any(String) });
          // The role check comes first (403); with the right role the id itself must be refused.
          if (res.statusCode === 404) checked = true;
          if (res.statusCode === 400 && route.params.some((p) => body.error?.fields?.[p])) checked = true;
        }
        expect(checked, `${route.method} ${route.path} never judged the id`).toBe(true);
      }
    });
  }
});
