import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analysisApi } from '@kutu/contract/paths';
import { createTestApp, type TestContext } from '../../../test/support/app.ts';
import { createUser, type TestUser } from '../../../test/support/users.ts';

interface Resource {
  id: number;
  title: string;
  description: string;
  language: string;
  url: string;
}

describe('experts translate education resources in the app', () => {
  let t: TestContext;
  let farmer: TestUser;
  let expert: TestUser;
  /** Farmers reading in each language (the account's language decides what a signed-in reader gets). */
  const readers = {} as Record<'en' | 'sw' | 'lg', TestUser>;
  let resource: Resource;
  beforeAll(async () => {
    t = await createTestApp();
    farmer = await createUser(t, 'farmer');
    expert = await createUser(t, 'expert');
    for (const language of ['en', 'sw', 'lg'] as const) readers[language] = await createUser(t, 'farmer', { language });
    const created = await t.app.inject({
      method: 'POST',
      url: analysisApi.resources,
      headers: expert.headers,
      payload: {
        rust_class: 'common_rust',
        title: 'Scouting maize for rust',
        url: 'https://example.org/scouting',
        description: 'Walk the field weekly and turn the lower leaves.',
      },
    });
    expect(created.statusCode).toBe(201);
    resource = created.json();
  });
  afterAll(() => t.close());

  const readIn = async (language: 'en' | 'sw' | 'lg') => {
    const res = await t.app.inject({
      method: 'GET',
      url: `${analysisApi.resources}?rust_class=common_rust&page_size=100`,
      headers: readers[language].headers,
    });
    expect(res.statusCode).toBe(200);
    return (res.json().results as Resource[]).find((r) => r.id === resource.id);
  };
  const translate = (user: TestUser, language: string, payload: Record<string, string>, id = resource.id) =>
    t.app.inject({
      method: 'PUT',
      url: analysisApi.resourceTranslationPath(id, language),
      headers: user.headers,
      payload,
    });
  const remove = (user: TestUser, language: string) =>
    t.app.inject({
      method: 'DELETE',
      url: analysisApi.resourceTranslationPath(resource.id, language),
      headers: user.headers,
    });
  const kiswahili = {
    title: 'Kukagua mahindi kuona kutu',
    description: 'Tembea shambani kila wiki na ugeuze majani ya chini.',
  };

  it('a new resource reads in English in every language, and says so', async () => {
    const inSwahili = await readIn('sw');
    expect(inSwahili).toMatchObject({ title: 'Scouting maize for rust', language: 'en' });
  });

  it('a Kiswahili text written by an expert reaches Kiswahili readers; English and Luganda readers keep the English', async () => {
    const res = await translate(expert, 'sw', kiswahili);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ ...kiswahili, language: 'sw', url: resource.url });

    expect(await readIn('sw')).toMatchObject({ ...kiswahili, language: 'sw' });
    expect(await readIn('en')).toMatchObject({ title: 'Scouting maize for rust', language: 'en' });
    expect(await readIn('lg')).toMatchObject({ title: 'Scouting maize for rust', language: 'en' });

    const fixed = await translate(expert, 'sw', { ...kiswahili, title: 'Kukagua mahindi kila wiki' });
    expect(fixed.json().title).toBe('Kukagua mahindi kila wiki');
    expect((await readIn('sw'))?.title).toBe('Kukagua mahindi kila wiki');
  });

  it('removing the translation brings the English text back to its readers', async () => {
    await translate(expert, 'lg', { title: 'Okukebera kasooli', description: 'Tambula mu nnimiro buli wiiki.' });
    expect((await readIn('lg'))?.language).toBe('lg');
    expect((await remove(expert, 'lg')).statusCode).toBe(204);
    expect(await readIn('lg')).toMatchObject({ title: 'Scouting maize for rust', language: 'en' });
    expect((await readIn('sw'))?.language).toBe('sw');
  });

  it('only experts translate; bad input and unknown resources get clear answers', async () => {
    expect((await translate(farmer, 'sw', kiswahili)).statusCode).toBe(403);
    expect((await remove(farmer, 'sw')).statusCode).toBe(403);

    const english = await translate(expert, 'en', kiswahili);
    expect(english.statusCode).toBe(400);
    expect(english.json().error.code).toBe('VALIDATION_ERROR');

    const short = await translate(expert, 'sw', { title: 'Ku', description: 'fupi' });
    expect(short.statusCode).toBe(400);
    expect(Object.keys(short.json().error.fields ?? {})).toEqual(expect.arrayContaining(['title', 'description']));

    const missing = await translate(expert, 'sw', kiswahili, 999_999);
    expect(missing.statusCode).toBe(404);
    expect((await readIn('sw'))?.language).toBe('sw');
  });
});
