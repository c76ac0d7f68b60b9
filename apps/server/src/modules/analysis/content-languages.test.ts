import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdviceItem, EducationResource, Language } from '@kutu/contract';
import { advice, analyses, educationResources, educationResourceTranslations } from '../../db/schema/index.ts';
import type { TestContext } from '../../../test/support/app.ts';
import { appWithFarmerAndExpert, type TestUser } from '../../../test/support/users.ts';
import { analysisApi, api } from '@kutu/contract';

const ADVICE = analysisApi.advice;
const RESOURCES = analysisApi.resources;

describe('advice and education resources in the reader’s language (en, sw, lg)', () => {
  let t: TestContext;
  let farmer: TestUser;
  let expert: TestUser;

  beforeAll(async () => {
    ({ t, farmer, expert } = await appWithFarmerAndExpert());
  });
  afterAll(() => t.close());

  const db = () => t.deps.database.db;
  /** The reader's language is their account's (chosen in the app's switch); the browser's header yields to it. */
  const get = async (url: string, language: Language, user = farmer, acceptLanguage = 'en') => {
    const chosen = await t.app.inject({
      method: 'PUT',
      url: api.auth.language,
      headers: user.headers,
      payload: { language },
    });
    expect(chosen.statusCode, chosen.body).toBe(200);
    return t.app.inject({ method: 'GET', url, headers: { ...user.headers, 'accept-language': acceptLanguage } });
  };
  const adviceIn = async (language: Language, acceptLanguage?: string): Promise<AdviceItem[]> =>
    (await get(ADVICE, language, farmer, acceptLanguage)).json().results;
  const resourcesIn = async (language: Language, query = '?page_size=200'): Promise<EducationResource[]> =>
    (await get(`${RESOURCES}${query}`, language)).json().results;
  const adviceRow = async (topic: string, crop: string, language: 'en' | 'sw' | 'lg') =>
    (
      await db()
        .select()
        .from(advice)
        .where(and(eq(advice.topic, topic), eq(advice.crop, crop), eq(advice.language, language)))
    )[0];

  it('has English, Kiswahili and Luganda advice for every topic and crop, each with its own text and the same sources', async () => {
    const rows = await db().select().from(advice);
    const english = rows.filter((r) => r.language === 'en');
    expect(english).toHaveLength(12);
    for (const en of english) {
      for (const language of ['sw', 'lg'] as const) {
        const translated = rows.find((r) => r.topic === en.topic && r.crop === en.crop && r.language === language);
        const label = `${en.topic}/${en.crop}/${language}`;
        expect(translated, label).toBeDefined();
        expect(translated?.headline, label).not.toBe(en.headline);
        expect(translated?.steps.length, label).toBe(en.steps.length);
        expect(translated?.more.length, label).toBe(en.more.length);
        expect(translated?.sources, label).toEqual(en.sources);
      }
    }
    expect(rows).toHaveLength(36);
  });

  it('says no bare English "blight" in the Kiswahili and Luganda advice (a named disease keeps its name)', async () => {
    const rows = (await db().select().from(advice)).filter((r) => r.language !== 'en');
    for (const r of rows) {
      const text = [r.headline, ...r.steps, ...r.more].join(' ').replace(/(northern|Turcicum) leaf blight/gi, '');
      expect(text, `${r.topic}/${r.crop}/${r.language}`).not.toMatch(/blight/i);
    }
    const beans = { sw: 'ukungu wa majani', lg: 'obukaza ebikoola' };
    for (const language of ['sw', 'lg'] as const) {
      expect((await adviceRow('common_rust', 'beans', language)).steps.join(' ')).toContain(beans[language]);
    }
  });

  it('keeps fungicide advice by active ingredient, with the registration and label caution, in every language', async () => {
    const caution = {
      sw: /iliyosajiliwa kwa mahindi nchini Kenya \(PCPB\) au Uganda \(MAAIF\).*lebo/,
      lg: /eryawandiisibwa okukozesebwa ku kasooli mu Kenya \(PCPB\) oba mu Uganda \(MAAIF\).*paketi/,
    };
    for (const language of ['sw', 'lg'] as const) {
      const steps = (await adviceRow('common_rust', 'maize', language)).steps.join(' ');
      expect(steps).toMatch(/azoxystrobin/);
      expect(steps).toMatch(/tebuconazole/);
      expect(steps).toMatch(caution[language]);
    }
  });

  it('has a Kiswahili and a Luganda title and description for every seeded resource', async () => {
    const resources = await db().select().from(educationResources);
    const translations = await db().select().from(educationResourceTranslations);
    expect(resources).toHaveLength(29);
    for (const r of resources) {
      for (const language of ['sw', 'lg'] as const) {
        const found = translations.find((x) => x.resourceId === r.id && x.language === language);
        const label = `${r.rustClass} ${r.url} ${language}`;
        expect(found, label).toBeDefined();
        expect(found?.title.length, label).toBeGreaterThan(3);
        expect(found?.description, label).not.toBe(r.description);
      }
    }
  });

  it("answers advice in the account's language (Kiswahili, Luganda, English), whatever the browser asks", async () => {
    for (const [language, header] of [
      ['sw', 'en'],
      ['sw', 'lg-UG'],
      ['lg', 'sw-KE,en;q=0.5'],
      ['en', 'sw'],
      ['en', 'fr-FR'],
    ] as const) {
      const items = await adviceIn(language, header);
      expect(items, header).toHaveLength(12);
      for (const item of items) {
        expect(item.language, `${language}/${header} ${item.topic}/${item.crop}`).toBe(language);
        expect(item.headline).toBe((await adviceRow(item.topic, item.crop, language)).headline);
      }
    }
    const sw = (await adviceIn('sw')).find((a) => a.topic === 'unsure');
    expect(sw?.headline).toMatch(/^Hatuna uhakika/);
    const lg = (await adviceIn('lg')).find((a) => a.topic === 'unsure');
    expect(lg?.headline).toMatch(/^Tetuli bakakafu/);
  });

  it('answers resources in the reader’s language and says each link is in English', async () => {
    const english = await resourcesIn('en');
    const swahili = await resourcesIn('sw');
    const luganda = await resourcesIn('lg');
    expect(swahili.map((r) => r.id)).toEqual(english.map((r) => r.id));
    const maizeDoctor = (list: EducationResource[]) =>
      list.find((r) => r.rust_class === 'common_rust' && r.url === 'http://maizedoctor.cimmyt.org/common-rust');
    expect(maizeDoctor(english)?.title).toBe('Common rust (Maize Doctor)');
    expect(maizeDoctor(swahili)?.title).toBe('Kutu ya kawaida (Maize Doctor)');
    expect(maizeDoctor(luganda)?.title).toBe('Kutu ya bulijjo (Maize Doctor)');
    for (const r of [...english, ...swahili, ...luganda]) expect(r.link_language).toBe('en');
    // Experts manage the English text whatever their reading language.
    expect((await resourcesIn('sw', '?page_size=200&language=en')).map((r) => r.title)).toEqual(
      english.map((r) => r.title),
    );
  });

  it('gives results their advice and resources in the reader’s language', async () => {
    const [row] = await db()
      .insert(analyses)
      .values({
        userId: farmer.id,
        imagePath: 'analyses/test/none.jpg',
        outcome: 'diagnosis',
        rustClass: 'common_rust',
        confidence: 0.9,
        probabilities: { common_rust: 0.9, healthy: 0.05, other_disease: 0.05 },
        modelVersion: 'test',
        crop: 'beans',
        createdAt: t.clock.now(),
      })
      .returning();
    const result = (await get(analysisApi.detailPath(row.id), 'lg')).json();
    const lg = await adviceRow('common_rust', 'beans', 'lg');
    expect(result.feedback).toMatchObject({ headline: lg.headline, advice: lg.steps, more: lg.more });
    expect(result.educational_resources.map((r: { title: string }) => r.title)).toContain('Kutu ya bijanjaalo');
    for (const r of result.educational_resources) expect(r.link_language).toBe('en');
    const listed = (await get(analysisApi.list, 'sw')).json().results[0];
    expect(listed.feedback.headline).toBe((await adviceRow('common_rust', 'beans', 'sw')).headline);
  });

  it('lets an expert edit a Kiswahili entry by id without touching the English one', async () => {
    const target = (await adviceIn('sw')).find((a) => a.topic === 'healthy' && a.crop === 'general');
    if (!target) throw new Error('seed missing');
    const english = await adviceRow('healthy', 'general', 'en');
    const res = await t.app.inject({
      method: 'PUT',
      url: `${ADVICE}${target.id}/`,
      headers: expert.headers,
      payload: {
        headline: 'Jani lako lina afya.',
        steps: ['Kagua shamba.', 'Angalia majani.', 'Uliza mtaalamu.'],
        more: [],
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: target.id, language: 'sw', headline: 'Jani lako lina afya.' });
    expect((await adviceIn('sw')).find((a) => a.id === target.id)?.headline).toBe('Jani lako lina afya.');
    expect((await adviceRow('healthy', 'general', 'en')).headline).toBe(english.headline);
  });

  it('falls back to English for an entry or resource whose translation is missing, and only for that one', async () => {
    await db()
      .delete(advice)
      .where(and(eq(advice.topic, 'not_leaf'), eq(advice.crop, 'general'), eq(advice.language, 'sw')));
    const items = await adviceIn('sw');
    expect(items).toHaveLength(12);
    const notLeaf = items.find((a) => a.topic === 'not_leaf' && a.crop === 'general');
    expect(notLeaf).toMatchObject({
      language: 'en',
      headline: (await adviceRow('not_leaf', 'general', 'en')).headline,
    });
    expect(items.filter((a) => a.language === 'sw')).toHaveLength(11);

    const bean = (await resourcesIn('en')).find((r) => r.title === 'Bean rust');
    if (!bean) throw new Error('seed missing');
    await db()
      .delete(educationResourceTranslations)
      .where(
        and(eq(educationResourceTranslations.resourceId, bean.id), eq(educationResourceTranslations.language, 'sw')),
      );
    const swahili = await resourcesIn('sw');
    expect(swahili.find((r) => r.id === bean.id)).toMatchObject({ title: 'Bean rust', description: bean.description });
    const swTitles = new Map(
      (
        await db().select().from(educationResourceTranslations).where(eq(educationResourceTranslations.language, 'sw'))
      ).map((x) => [x.resourceId, x.title]),
    );
    for (const r of swahili.filter((r) => r.id !== bean.id)) expect(r.title).toBe(swTitles.get(r.id));
    expect((await resourcesIn('lg')).find((r) => r.id === bean.id)?.title).toBe('Kutu ya bijanjaalo');
  });

  it('reports the language of a link an expert marks as not English', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: RESOURCES,
      headers: expert.headers,
      payload: {
        rust_class: 'photo_tips',
        title: 'Picha nzuri za majani',
        url: 'https://example.org/picha',
        description: 'Jinsi ya kupiga picha ya jani moja kwa karibu.',
        link_language: 'sw',
      },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().link_language).toBe('sw');
    const listed = (await resourcesIn('lg', '?rust_class=photo_tips')).find((r) => r.id === res.json().id);
    expect(listed).toMatchObject({ link_language: 'sw', title: 'Picha nzuri za majani' });
    const unmarked = await t.app.inject({
      method: 'POST',
      url: RESOURCES,
      headers: expert.headers,
      payload: {
        rust_class: 'photo_tips',
        title: 'More photo tips',
        url: 'https://example.org/photos',
        description: 'How to photograph one leaf close up.',
      },
    });
    expect(unmarked.json().link_language).toBe('en');
  });
});
