import { describe, expect, it } from 'vitest';
import { SMALL_COUNT_MIN } from '@kutu/contract';
import { catalogs, eatTime, t } from './i18n.ts';

type Tree = { [key: string]: string | Tree };

function leaves(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(path, value);
    else for (const [k, v] of leaves(value, path)) out.set(k, v);
  }
  return out;
}
const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

const english = leaves(catalogs.en as unknown as Tree);

describe('message catalogs', () => {
  for (const language of ['sw', 'lg'] as const) {
    const translated = leaves(catalogs[language] as unknown as Tree);

    it(`${language} has every English key, and no other`, () => {
      expect([...translated.keys()].sort()).toEqual([...english.keys()].sort());
    });

    it(`${language} keeps the placeholders of every English text`, () => {
      const wrong = [...english]
        .filter(
          ([key, text]) =>
            JSON.stringify(placeholders(text)) !== JSON.stringify(placeholders(translated.get(key) ?? '')),
        )
        .map(([key]) => key);
      expect(wrong).toEqual([]);
    });

    // The walk read "baalagiddwa model" and "1 Uganda" in Luganda: each language's own word.
    it(`${language} writes no English word where it has its own: modeli, Yuganda`, () => {
      const english = language === 'lg' ? [/\bmodel\b/i, /\bUganda\b/] : [/\bmodel\b/i];
      expect([...translated].filter(([, text]) => english.some((w) => w.test(text))).map(([key]) => key)).toEqual([]);
    });

    it(`${language} leaves no text empty`, () => {
      expect([...translated].filter(([, text]) => text.trim() === '').map(([key]) => key)).toEqual([]);
    });
  }

  it('keeps the code the first 4-digit number in every SMS and code email', () => {
    for (const language of ['en', 'sw', 'lg'] as const) {
      const sms = t(language, 'sms.activation', { code: '0427' });
      expect(sms.match(/\b\d{4}\b/)?.[0], sms).toBe('0427');
      const mail = t(language, 'mail.verification.text', {
        intro: t(language, 'mail.verification.introNew'),
        code: '0427',
        link: 'https://kutu.example/auth/verify-email?token=x&verificationToken=0427',
      });
      expect(mail.match(/\b\d{4}\b/)?.[0], mail).toBe('0427');
    }
  });

  it('writes the activation SMS in one GSM-7 SMS', () => {
    const gsm7 = /^[@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&'()*+,\-./0-9:;<=>?¡A-ZÄÖÑÜ§¿a-zäöñüà^{}\\[~\]|€]*$/;
    for (const language of ['en', 'sw', 'lg'] as const) {
      const sms = t(language, 'sms.activation', { code: '0427' });
      expect(sms, language).toMatch(gsm7);
      expect(sms.length, language).toBeLessThanOrEqual(160);
    }
  });

  it('chooses the plural form by count', () => {
    expect(t('en', 'errors.auth.wrongCode', { count: 1 })).toBe('Wrong code. You have 1 try left.');
    expect(t('en', 'errors.auth.wrongCode', { count: 3 })).toBe('Wrong code. You have 3 tries left.');
    expect(t('sw', 'errors.auth.wrongCode', { count: 3 })).toBe('Msimbo si sahihi. Umebakiwa na majaribio 3.');
  });
});

describe('the small-count rule in words', () => {
  // The hidden range is a parameter ({{max}}, {{min}}) in every text: the minimum changes in the contract only.
  it('writes no hidden range with its number in any language', () => {
    const max = SMALL_COUNT_MIN - 1;
    const written = new RegExp(`\\b0 (to|hadi|okutuuka ku) ${max}\\b|\\b0, 1 (and|na|ne) 2\\b`);
    const found = Object.entries(catalogs).flatMap(([language, catalog]) => {
      const texts: [string, string][] = [];
      const walk = (o: unknown, at: string) => {
        if (typeof o === 'string') texts.push([at, o]);
        else if (o && typeof o === 'object') for (const [k, v] of Object.entries(o)) walk(v, at ? `${at}.${k}` : k);
      };
      walk(catalog, '');
      return texts.filter(([, text]) => written.test(text)).map(([at]) => `${language}: ${at}`);
    });
    expect(found).toEqual([]);
    expect(t('en', 'officer.report.hiddenCount', { max })).toBe(`0 to ${max}`);
  });
});

describe('Luganda dates', () => {
  it('writes the weekday and month in Luganda, day first, not "Lw3, Nov 25, 2026"', () => {
    expect(eatTime('lg', new Date('2026-11-25T08:00:00Z'))).toBe('Lwakusatu, 25 Novemba 2026, 11:00 EAT');
    expect(eatTime('lg', new Date('2026-03-02T08:00:00Z'))).toBe('Balaza, 2 Marisi 2026, 11:00 EAT');
  });
});
