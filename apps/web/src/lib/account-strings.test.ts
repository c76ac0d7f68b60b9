import { beforeEach, describe, expect, it, vi } from 'vitest';
import english from './locales/en.json';
import luganda from './locales/lg.json';

// A phone set to Luganda from the start, with fresh modules (the language is read when they load).
beforeEach(() => {
  vi.resetModules();
  localStorage.setItem('language', 'lg');
});

describe('the account screens’ strings', () => {
  it('on a phone in Luganda are Luganda’s alone; a switch to English fetches English’s', async () => {
    const { default: i18n } = await import('./i18n.ts');
    const { setLanguage } = await import('./language.ts');
    await (await import('./account-strings.ts')).accountStringsReady;
    await vi.waitFor(() => expect(i18n.t('dashboard.statsLabel')).toBe(luganda.dashboard.statsLabel));
    expect(i18n.getResource('en', 'translation', 'dashboard.statsLabel')).toBeUndefined();

    await setLanguage('en');
    expect(i18n.t('dashboard.statsLabel')).toBe(english.dashboard.statsLabel);
  });
});
