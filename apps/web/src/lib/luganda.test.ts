import { afterEach, describe, expect, it } from 'vitest';
import i18n from './i18n.ts';

afterEach(async () => {
  await i18n.changeLanguage('en');
});

describe('a field name after "mu" in Luganda', () => {
  it('loses its initial vowel, as Luganda says it: "Tambula mu nnimiro 1", not "mu Ennimiro 1"', async () => {
    await i18n.changeLanguage('lg');
    // The fields screen's own texts, as the lg catalogue has them.
    const lg = (await import('./locales/lg.json')).default as { fields: { walk: { title: string } } };
    i18n.addResourceBundle('lg', 'translation', { fields: { walk: { title: lg.fields.walk.title } } }, true, true);
    expect(i18n.t('fields.walk.title', { name: 'Ennimiro 1' })).toBe('Tambula mu nnimiro 1');
    expect(i18n.t('fields.walk.title', { name: 'Ennimiro yange' })).toBe('Tambula mu nnimiro yange');
    // A name of the farmer's own is left as typed.
    expect(i18n.t('fields.walk.title', { name: 'Kibanja' })).toBe('Tambula mu Kibanja');
  });
});
