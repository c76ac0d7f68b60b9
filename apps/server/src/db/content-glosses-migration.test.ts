import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../test/support/app.ts';
import type { Database } from './client.ts';

/** An English word in brackets after a translated one, as 0012 seeded ("Kutu (rust) ku kasooli"). */
const GLOSS =
  /\((rust|southern rust|stripe rust|leaf rust|stem rust|spores|label|certified|legumes|lime|active ingredient|flag leaf|mid-altitude|lab)\)/i;

describe('migration 0020_content_english_glosses', () => {
  let database: Database;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ database, drop } = await openTestDatabase());
  });
  afterAll(() => drop());

  it('leaves no English gloss in the Luganda and Kiswahili advice and resources, and keeps the Luganda words', async () => {
    const { rows } = await database.execute(
      `select language, headline || steps::text || more::text as text from advice where language in ('sw', 'lg')
       union all
       select language, title || ' ' || description from education_resource_translations`,
    );
    const texts = rows as { language: string; text: string }[];
    expect(texts.filter((r) => r.language === 'lg').length).toBeGreaterThan(10);
    expect(texts.filter((r) => GLOSS.test(r.text)).map((r) => r.text.match(GLOSS)?.[0])).toEqual([]);
    const luganda = texts
      .filter((r) => r.language === 'lg')
      .map((r) => r.text)
      .join('\n');
    expect(luganda).toContain('Kutu ku kasooli: laba we bubunye nga tonnasaasaanya ssente.');
    expect(luganda).toContain('kutu ya polysora, esaasaana');
    expect(luganda).toContain("kutu y'ebikoola (eya kitaka)");
  });
});
