import { describe, expect, it } from 'vitest';
import { rustClasses } from '@kutu/contract/enums';
import { resultExplanationText, resultHeadingText, type TextRef } from '@kutu/contract/result-text';
import en from './locales/en.json';

type Tree = { [key: string]: string | Tree };
const lookup = (key: string): unknown =>
  key.split('.').reduce<unknown>((node, part) => (node as Tree | undefined)?.[part], en as unknown as Tree);
const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

/** Every result the server or the phone can send: each outcome, class, crop (posts add wheat) and doubt. */
const results = (['diagnosis', 'not_leaf'] as const).flatMap((outcome) =>
  [...rustClasses, null].flatMap((rust_class) =>
    ['maize', 'beans', 'wheat', 'other', null].flatMap((crop) =>
      [false, true].map((unsure) => ({ outcome, rust_class, crop, unsure, confidence: 0.72 })),
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
    expect(results).toHaveLength(80);
  });
});
