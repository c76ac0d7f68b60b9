import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestContext } from '../../../test/support/app.ts';
import { appWithFarmerAndExpert, type TestUser } from '../../../test/support/users.ts';
import { analysisApi } from '@kutu/contract';

const URL_PATH = analysisApi.resources;

describe('education resources', () => {
  let t: TestContext;
  let farmer: TestUser;
  let expert: TestUser;
  beforeAll(async () => {
    ({ t, farmer, expert } = await appWithFarmerAndExpert());
  });
  afterAll(() => t.close());

  const list = (user: TestUser, query = '') =>
    t.app.inject({ method: 'GET', url: `${URL_PATH}${query}`, headers: user.headers });

  it('are seeded for every class and for photo tips, with working-looking links', async () => {
    for (const topic of ['common_rust', 'healthy', 'other_disease', 'photo_tips']) {
      const res = await list(farmer, `?rust_class=${topic}&page_size=50`);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.count).toBeGreaterThanOrEqual(3);
      for (const r of body.results) {
        expect(r.rust_class).toBe(topic);
        expect(r.url).toMatch(/^https?:\/\/[a-z0-9.-]+\.[a-z]{2,}\//);
        expect(r.title.length).toBeGreaterThan(3);
        expect(r.description.length).toBeGreaterThan(20);
        expect(r.retired).toBe(false);
      }
    }
    const rust = (await list(farmer, '?rust_class=common_rust&page_size=50')).json();
    expect(rust.results.map((r: { url: string }) => r.url)).toContain('http://maizedoctor.cimmyt.org/common-rust');
  });

  it('list in pages of {count, next, previous, results}', async () => {
    const all = (await list(farmer, '?page_size=200')).json();
    const first = (await list(farmer, '?page=1&page_size=5')).json();
    expect(first).toMatchObject({ count: all.count, next: 2, previous: null });
    expect(first.results).toHaveLength(5);
    const second = (await list(farmer, '?page=2&page_size=5')).json();
    expect(second.previous).toBe(1);
    expect(second.results[0].id).not.toBe(first.results[0].id);
    const bad = await list(farmer, '?rust_class=leaf_blast');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBe('VALIDATION_ERROR');
  });

  it('need a signed-in caller to read, and an expert to change', async () => {
    expect((await t.app.inject({ method: 'GET', url: URL_PATH })).statusCode).toBe(401);
    const body = {
      rust_class: 'healthy',
      title: 'A farmer trying to add',
      url: 'https://example.org/x',
      description: 'Farmers cannot add resources.',
    };
    const post = await t.app.inject({ method: 'POST', url: URL_PATH, headers: farmer.headers, payload: body });
    expect(post.statusCode).toBe(403);
    expect(post.json().error).toMatchObject({ code: 'FORBIDDEN', message: 'Only experts can do this' });
    const id = (await list(farmer, '?page_size=1')).json().results[0].id;
    const put = await t.app.inject({ method: 'PUT', url: `${URL_PATH}${id}/`, headers: farmer.headers, payload: body });
    expect(put.statusCode).toBe(403);
    const del = await t.app.inject({ method: 'DELETE', url: `${URL_PATH}${id}/`, headers: farmer.headers });
    expect(del.statusCode).toBe(403);
    const retired = await list(farmer, '?include_retired=true');
    expect(retired.statusCode).toBe(403);
  });

  it('experts add, edit and retire resources; retired ones disappear from the farmer list', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: URL_PATH,
      headers: expert.headers,
      payload: {
        rust_class: 'common_rust',
        title: '  Bean rust field guide  ',
        url: 'https://infonet-biovision.org/PlantHealth/MinorPests/bean-rust',
        description: 'Symptoms and management of bean rust in East Africa.',
        position: 5,
      },
    });
    expect(created.statusCode).toBe(201);
    const resource = created.json();
    expect(resource).toMatchObject({
      rust_class: 'common_rust',
      title: 'Bean rust field guide',
      retired: false,
      position: 5,
    });

    const edited = await t.app.inject({
      method: 'PUT',
      url: `${URL_PATH}${resource.id}/`,
      headers: expert.headers,
      payload: {
        rust_class: 'common_rust',
        title: 'Bean rust (Infonet)',
        url: resource.url,
        description: resource.description,
        position: 1,
      },
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({ id: resource.id, title: 'Bean rust (Infonet)', position: 1 });

    const retire = await t.app.inject({ method: 'DELETE', url: `${URL_PATH}${resource.id}/`, headers: expert.headers });
    expect(retire.statusCode).toBe(204);
    const farmerView = (await list(farmer, '?rust_class=common_rust&page_size=200')).json();
    expect(farmerView.results.some((r: { id: number }) => r.id === resource.id)).toBe(false);
    const expertView = (await list(expert, '?rust_class=common_rust&include_retired=true&page_size=200')).json();
    expect(expertView.results.find((r: { id: number }) => r.id === resource.id)).toMatchObject({ retired: true });
    // Retiring twice is harmless.
    expect(
      (await t.app.inject({ method: 'DELETE', url: `${URL_PATH}${resource.id}/`, headers: expert.headers })).statusCode,
    ).toBe(204);
  });

  it('refuse bad input with a clear message per field, and unknown ids with 404', async () => {
    const bad = await t.app.inject({
      method: 'POST',
      url: URL_PATH,
      headers: expert.headers,
      payload: {
        rust_class: 'healthy',
        title: 'Click me',
        url: 'javascript:alert(1)',
        description: 'short',
        position: 2.5,
      },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields).toMatchObject({
      url: 'Enter a full web address starting with http:// or https://',
      description: 'Description must be at least 10 characters',
      position: 'Order must be a whole number from 0 to 1000',
    });
    const missing = await t.app.inject({ method: 'POST', url: URL_PATH, headers: expert.headers, payload: {} });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.fields).toMatchObject({ title: 'Title is required', url: 'URL is required' });
    const body = {
      rust_class: 'healthy',
      title: 'Nothing here',
      url: 'https://example.org/',
      description: 'Does not exist.',
    };
    const put = await t.app.inject({
      method: 'PUT',
      url: `${URL_PATH}999999/`,
      headers: expert.headers,
      payload: body,
    });
    expect(put.statusCode).toBe(404);
    const del = await t.app.inject({ method: 'DELETE', url: `${URL_PATH}999999/`, headers: expert.headers });
    expect(del.statusCode).toBe(404);
    const notAnId = await t.app.inject({ method: 'DELETE', url: `${URL_PATH}abc/`, headers: expert.headers });
    expect(notAnId.statusCode).toBe(400);
  });
});
