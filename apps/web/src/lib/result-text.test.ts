import { describe, expect, it } from 'vitest';
import { rustClasses } from '@kutu/contract/enums';
import { resultExplanationText, resultHeadingText, type TextRef } from '@kutu/contract/result-text';
import { createInstance } from 'i18next';
import { say } from './diagnosis-labels.ts';
import en from './locales/en.json';
import lg from './locales/lg.json';
import sw from './locales/sw.json';

type Tree = { [key: string]: string | Tree };
const lookup = (key: string): unknown =>
  key.split('.').reduce<unknown>((node, part) => (node as Tree | undefined)?.[part], en as unknown as Tree);
const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

/** Every result the server or the phone can send: each outcome, class, crop (posts add wheat) and doubt. */
const results = (['diagnosis', 'not_leaf'] as const).flatMap((outcome) =>
  [...rustClasses, null].flatMap((rust_class) =>
    ['maize', 'beans', 'wheat', 'other', null].flatMap((crop) =>
      [false, true].flatMap((unsure) =>
        // A field answer with rust seen on 1 of 3 leaves, and one photo alone.
        [
          { rust_leaves: 1, leaf_count: 3 },
          { rust_leaves: 0, leaf_count: 1 },
        ].map((seen) => ({ outcome, rust_class, crop, unsure, confidence: 0.72, ...seen })),
      ),
    ),
  ),
);

describe("the API's result texts (keys and values) against the web catalogue", () => {
  it('names only keys the catalogue has, with exactly the values each text fills in', () => {
    const problems: string[] = [];
    const check = (ref: TextRef) => {
      const text = lookup(ref.key);
      if (typeof text !== 'string') return problems.push(`${ref.key} is not a text`);
      const names = Object.keys(ref.values ?? {}).sort();
      if (JSON.stringify(placeholders(text)) !== JSON.stringify(names)) problems.push(`${ref.key} fills ${names}`);
      for (const v of Object.values(ref.values ?? {}))
        if (typeof v !== 'string' && typeof lookup(v.key) !== 'string') problems.push(`${v.key} is not a text`);
    };
    for (const r of results) {
      check(resultHeadingText(r));
      check(resultExplanationText(r));
    }
    expect(problems).toEqual([]);
    expect(results).toHaveLength(160);
  });
});

describe('rust seen on some leaves of a field', () => {
  const field = {
    outcome: 'diagnosis' as const,
    rust_class: 'common_rust' as const,
    crop: 'maize',
    unsure: true,
    confidence: 0.95,
    rust_leaves: 1,
    leaf_count: 3,
  };

  it('says on how many of the leaves rust was seen, in English, Kiswahili and Luganda', async () => {
    const said: Record<string, string> = {};
    for (const [language, catalogue] of Object.entries({ en, sw, lg })) {
      const i18n = createInstance();
      await i18n.init({ lng: language, resources: { [language]: { translation: catalogue } } });
      said[language] = say(i18n.t, resultHeadingText(field));
      // Not the unsure answer's "possibly rust, 95 %": the field's explanation says what to do.
      expect(say(i18n.t, resultExplanationText(field))).toBe(i18n.t('analysis.result.explanation.rust_seen'));
    }
    expect(said).toEqual({
      en: 'Common rust (Puccinia sorghi) seen on 1 of 3 leaves',
      // The noun goes with the total, as in English: "majani 1" (leaves 1) was wrong for one leaf.
      sw: `${sw.analysis.rustName.maize} imeonekana kwenye 1 kati ya majani 3`,
      lg: `${lg.analysis.rustName.maize} kirabiddwa ku 1 ku bikoola 3`,
    });
  });

  it('keeps the plain answers for one photo and for a field with no rust leaf', () => {
    expect(resultHeadingText({ ...field, leaf_count: 1, rust_leaves: 0 }).key).toBe('analysis.result.heading.unsure');
    expect(resultHeadingText({ ...field, unsure: false }).key).toBe('analysis.result.heading.rust_maize');
  });
});
