import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import en from './locales/en.json';
import {
  FEATURE_SECTIONS,
  FIELDS_SECTIONS,
  FIRST_SECTIONS,
  LOCALE_PARTS,
  localePart,
  OFFICER_SECTIONS,
  STAFF_SECTIONS,
} from './locale-parts.ts';

const srcDir = path.join(import.meta.dirname, '..');
const sections = Object.keys(en);

/**
 * The code a visitor can run before the account shell loads: the entry, the auth layout, the auth and
 * static pages and what they import (statically or on a choice), but not the router's other screens.
 */
function firstScreenFiles(): string[] {
  const roots = [
    'main.tsx',
    'app/layout/AuthLayout.tsx',
    ...['features/auth/pages', 'features/static/pages'].flatMap((dir) =>
      fs.readdirSync(path.join(srcDir, dir)).map((file) => path.join(dir, file)),
    ),
  ].map((file) => path.join(srcDir, file));
  const later = (file: string) =>
    file.endsWith('AccountLayout.tsx') ||
    file.endsWith('account-strings.ts') ||
    (/\/pages\//.test(file) && !/\/features\/(auth|static)\//.test(file));
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file) || later(file) || !/\.tsx?$/.test(file) || file.includes('.test.')) return;
    seen.add(file);
    const source = fs.readFileSync(file, 'utf8');
    for (const [, spec] of source.matchAll(/(?:from|import)\s*\(?\s*['"](\.[^'"]+)['"]/g))
      visit(path.resolve(path.dirname(file), spec!));
  };
  for (const root of roots) visit(root);
  return [...seen];
}

describe('locale parts', () => {
  it('the parts together are the whole file, once', () => {
    const parts = LOCALE_PARTS.map((part) => localePart(en, part));
    for (const [i, part] of parts.entries())
      if (LOCALE_PARTS[i] !== 'account') expect(Object.keys(part).length, LOCALE_PARTS[i]).toBeGreaterThan(0);
    expect(Object.assign({}, ...parts)).toEqual(en);
    const keys = parts.flatMap((part) => Object.keys(part));
    expect(new Set(keys).size).toBe(keys.length);
    for (const section of [
      ...FIRST_SECTIONS,
      ...STAFF_SECTIONS,
      ...OFFICER_SECTIONS,
      ...FIELDS_SECTIONS,
      ...FEATURE_SECTIONS,
    ])
      expect(sections, section).toContain(section);
  });

  it.each([
    // components/staff/ holds parts only staff screens render (the field figures on the training and admin pages).
    [
      'staff',
      STAFF_SECTIONS,
      [
        'features/training/',
        'features/clinic/',
        'features/phone/',
        'features/admin/',
        'features/voice/',
        'features/forecast/',
        'components/staff/',
      ],
    ],
    // The national bulletin's files and switch: the officer's page, and the administrator's page loading them
    // with the officer part (decision 0122).
    ['officer', OFFICER_SECTIONS, ['features/extension/', 'components/staff/Bulletin.tsx']],
    [
      'fields',
      FIELDS_SECTIONS,
      [
        'features/fields/',
        'features/analysis/components/FieldChoice.tsx',
        'features/analysis/components/ResultField.tsx',
        'features/analysis/pages/AnalysisHistoryPage.tsx',
        'lib/offline/walks.ts',
      ],
    ],
    // Each feature part with its own screens (decision 0121): a page brings it (lib/<part>-strings.ts).
    ['community', ['community'], ['features/community/', 'api/community.ts']],
    ['consultations', ['consultations'], ['features/consultations/']],
    // The forecast desk shows the map's levels and reasons (decision 0128).
    [
      'outbreak',
      ['outbreak'],
      [
        'features/outbreak/',
        'features/review/pages/ReviewQueuePage.tsx',
        'features/forecast/',
        'lib/forecast-reasons.ts',
      ],
    ],
  ])('only the screens that bring the %s part use its keys', (_part, sections, screens) => {
    const used: string[] = [];
    const visit = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const file = path.join(dir, entry.name);
        if (entry.isDirectory()) visit(file);
        else if (/\.tsx?$/.test(file) && !file.includes('.test.')) {
          const rel = path.relative(srcDir, file);
          if (screens.some((prefix) => rel.startsWith(prefix))) continue;
          for (const m of fs.readFileSync(file, 'utf8').matchAll(/[`'"]([a-z][a-zA-Z]*)\.[a-zA-Z$]/g))
            if (sections.includes(m[1]!)) used.push(`${rel}: ${m[1]}`);
        }
      }
    };
    visit(srcDir);
    expect(used).toEqual([]);
  });

  it('the screens before sign-in use only keys of the first part', () => {
    const files = firstScreenFiles();
    expect(files.length).toBeGreaterThan(20);
    const used = files.flatMap((file) =>
      [...fs.readFileSync(file, 'utf8').matchAll(/[`'"]([a-z][a-zA-Z]*)\.[a-zA-Z$]/g)]
        .map((m) => m[1]!)
        .filter((section) => sections.includes(section) && !FIRST_SECTIONS.includes(section))
        .map((section) => `${path.relative(srcDir, file)}: ${section}`),
    );
    expect(used).toEqual([]);
  });
});
