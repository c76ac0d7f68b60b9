import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ROW_ID } from '@kutu/contract';
import { createTestApp, type TestContext } from '../support/app.ts';
import { createUser, type TestUser } from '../support/users.ts';

/** Ids beyond int4 once gave 500 on four routes. Every route with a path parameter is tried. */
describe('path ids beyond int4', () => {
  let t: TestContext;
  let farmer: TestUser;
  let expert: TestUser;
  let admin: TestUser;
  let officer: TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    farmer = await createUser(t, 'farmer');
    expert = await createUser(t, 'expert');
    admin = await createUser(t, 'admin');
    officer = await createUser(t, 'officer');
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

  /** The route as `user` calls it, with an empty body where the method takes one. */
  const callAs = (user: TestUser, method: string, url: string) =>
    t.app.inject({
      method: method as 'GET',
      url,
      headers: user.headers,
      ...(method === 'GET' || method === 'DELETE' ? {} : { payload: {} }),
    });

  it('finds the routes it must cover', () => {
    const paths = routesWithParams().map((r) => `${r.method} ${r.path}`);
    expect(paths).toContain('GET /api/rust-detection/{id}/');
    expect(paths).toContain('GET /api/community/posts/{id}/');
    expect(paths.length).toBeGreaterThan(15);
  });

  // "1.0" and "0x1" once read row 1 (Number() takes them): an id is plain digits, else a 400 naming it.
  it('refuses ids written as 1.0, 0x1 or 1e0 on every route with an id, never reading row 1', async () => {
    const withId = routesWithParams().filter((r) => r.params.includes('id'));
    expect(withId.length).toBeGreaterThan(15);
    for (const id of ['1.0', '0x1', '1e0']) {
      for (const route of withId) {
        const url = route.params.reduce((u, p) => u.replace(`{${p}}`, p === 'id' ? id : '1'), route.path);
        const answers = [];
        for (const user of [farmer, expert, admin, officer]) {
          const res = await callAs(user, route.method, url);
          answers.push(res.statusCode);
          const fields = (res.json() as { error?: { fields?: Record<string, string> } }).error?.fields;
          if (res.statusCode === 400 && fields?.id) answers.push('refused');
        }
        expect(answers, `${route.method} ${url}`).toContain('refused');
        expect(
          answers.filter((a) => a === 200 || a === 201 || a === 404),
          `${route.method} ${url}`,
        ).toEqual([]);
      }
    }
  });

  for (const id of [String(MAX_ROW_ID + 1), '99999999999999999999']) {
    it(`answers id ${id} with 400 or 404 in the API's error shape on every route, never 500`, async () => {
      for (const route of routesWithParams()) {
        const url = route.params.reduce((u, p) => u.replace(`{${p}}`, id), route.path);
        let checked = false;
        for (const user of [farmer, expert, admin, officer]) {
          const res = await callAs(user, route.method, url);
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

/** `booking_id` 2147483648 in a body once gave 500; every id in a body or a query is tried. */
describe('body and query ids beyond int4', () => {
  let t: TestContext;
  let farmer: TestUser;
  let expert: TestUser;
  let officer: TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    farmer = await createUser(t, 'farmer');
    expert = await createUser(t, 'expert');
    officer = await createUser(t, 'officer');
  });
  afterAll(() => t.close());

  type Schema = { type?: string; maximum?: number; anyOf?: Schema[] };
  const isId = (name: string) => /(^|_)id$|Id$|^rust_detection$/.test(name);
  const isNumber = (s: Schema): boolean => s.type === 'integer' || s.type === 'number' || !!s.anyOf?.some(isNumber);

  /** Every numeric id field of a JSON body or a query, from the app's own OpenAPI document. */
  function idFields() {
    const doc = t.app.swagger() as {
      paths: Record<
        string,
        Record<
          string,
          {
            parameters?: { in: string; name: string; schema: Schema }[];
            requestBody?: { content: Record<string, { schema: { properties?: Record<string, Schema> } }> };
          }
        >
      >;
    };
    const fields: { method: string; path: string; where: 'query' | 'body'; name: string; schema: Schema }[] = [];
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(operations)) {
        for (const p of op.parameters ?? []) {
          if (p.in === 'query' && isId(p.name) && isNumber(p.schema))
            fields.push({ method: method.toUpperCase(), path, where: 'query', name: p.name, schema: p.schema });
        }
        const body = op.requestBody?.content['application/json']?.schema.properties ?? {};
        for (const [name, schema] of Object.entries(body)) {
          if (isId(name) && isNumber(schema))
            fields.push({ method: method.toUpperCase(), path, where: 'body', name, schema });
        }
      }
    }
    return fields;
  }

  it('finds the fields it must cover', () => {
    const names = idFields().map((f) => `${f.method} ${f.path} ${f.name}`);
    expect(names).toContain('PUT /api/consultations/consultations/manage/ booking_id');
    expect(names).toContain('GET /api/community/moderation-log/ target_id');
    expect(names.length).toBeGreaterThan(6);
  });

  it('documents every one as at most int4', () => {
    const wide = idFields().filter((f) => !(f.schema.maximum !== undefined && f.schema.maximum <= MAX_ROW_ID));
    expect(wide.map((f) => `${f.method} ${f.path} ${f.name}`)).toEqual([]);
  });

  it(`answers ${MAX_ROW_ID + 1} in any of them with 400 naming the field, never 500`, async () => {
    for (const field of idFields()) {
      const id = MAX_ROW_ID + 1;
      // Other path parameters take a value the route accepts (a district: the officer's own), so the id is what is judged.
      const path = field.path.replace('{code}', 'UG-208').replace(/\{\w+\}/g, '1');
      const url = path + (field.where === 'query' ? `?${field.name}=${id}` : '');
      let judged = false;
      for (const user of [farmer, expert, officer]) {
        const res = await t.app.inject({
          method: field.method as 'GET',
          url,
          headers: user.headers,
          ...(field.where === 'body' ? { payload: { [field.name]: id } } : {}),
        });
        const where = `${field.method} ${url} ${field.name} as ${user.role}: ${res.body}`;
        expect(res.statusCode, where).toBeLessThan(500);
        const fields = (res.json() as { error?: { fields?: Record<string, string> } }).error?.fields ?? {};
        if (res.statusCode === 400 && fields[field.name]) judged = true;
      }
      expect(judged, `${field.method} ${field.path} never judged ${field.name}`).toBe(true);
    }
  });
});
