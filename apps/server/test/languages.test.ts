import fs from 'node:fs';
import path from 'node:path';
import { getTableColumns, isTable } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { languages, nativeNames, SYNTH_LANGUAGES, translationLanguages, USSD_HOME } from '@kutu/contract';
import type { Database } from '../src/db/client.ts';
import * as schema from '../src/db/schema/index.ts';
import { t } from '../src/i18n/i18n.ts';
import { type MenuCtx, type MenuUses, runMenu } from '../src/modules/basic-phone/menu.ts';
import { screens } from '../src/modules/basic-phone/screens-menu.ts';
import { VOICE_FILES } from '../../web/scripts/voice-data.ts';
import { openTestDatabase } from './support/app.ts';

/*
 * Every list of languages Kutu keeps beyond the contract's `languages` (and VOICE_LANGUAGES), compared with
 * it: a fourth language added to the contract fails here wherever it was not carried through (docs/languages.md).
 */
const sorted = (list: readonly string[]) => [...list].sort();

describe('every language list agrees with the contract', () => {
  let database: Database;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ database, drop } = await openTestDatabase());
  });
  afterAll(() => drop());

  it("the migrated database's check constraints on a language allow the contract's languages (translations: all but English)", async () => {
    const { rows } = await database.execute(
      `select k.conname as name, pg_get_constraintdef(k.oid) as def from pg_constraint k
         join pg_namespace n on n.oid = k.connamespace
        where k.contype = 'c' and n.nspname = 'public' and k.conname like '%language%'`,
    );
    const checks = rows as { name: string; def: string }[];
    expect(checks.map((c) => c.name)).toEqual(
      expect.arrayContaining(['users_language_check', 'advice_language_check']),
    );
    for (const { name, def } of checks) {
      const allowed = [...def.matchAll(/'([^']+)'/g)].map((m) => m[1]!);
      const want = name.startsWith('education_resource_translations_') ? translationLanguages : languages;
      expect(sorted(allowed), `${name}: ${def}`).toEqual(sorted(want));
    }
  });

  it("the Drizzle schema's language columns take the contract's languages", () => {
    const columns: string[] = [];
    for (const [exported, table] of Object.entries(schema)) {
      if (!isTable(table)) continue;
      for (const [key, column] of Object.entries(getTableColumns(table))) {
        if (!/language$/i.test(key) || !column.enumValues) continue;
        columns.push(`${exported}.${key}`);
        expect(sorted(column.enumValues), `${exported}.${key}`).toEqual(sorted(languages));
      }
    }
    expect(columns).toEqual(expect.arrayContaining(['users.language', 'voiceClips.language', 'advice.language']));
  });

  it('the server answers in each language from its own catalog, and has a catalog for no other', () => {
    const dir = path.resolve(import.meta.dirname, '../src/i18n/locales');
    expect(sorted(fs.readdirSync(dir).filter((f) => f.endsWith('.json')))).toEqual(
      sorted(languages.map((l) => `${l}.json`)),
    );
    for (const language of languages) {
      const catalog = JSON.parse(fs.readFileSync(path.join(dir, `${language}.json`), 'utf8'));
      expect(t(language, 'ussd.settings'), language).toBe(catalog.ussd.settings);
    }
  });

  it("the USSD language menu offers the contract's languages, key 1 for the first, and no key beyond them", async () => {
    const chosen: string[] = [];
    const ctx: Omit<MenuCtx, 'lang'> = {
      phone: '+256772000999',
      user: {
        id: 1,
        username: 'x',
        role: 'farmer',
        phone: '+256772000999',
        language: 'en',
        district: null,
      } as MenuCtx['user'],
      now: new Date('2026-12-01T08:00:00Z'),
      code: '*384*123*45#',
      termsUrl: 'kutu.example.org/terms',
      uses: { repo: { setLanguage: async (_: number, l: string) => void chosen.push(l) } } as unknown as MenuUses,
    };
    const settings = String(USSD_HOME.indexOf('settings') + 1);
    for (const key of languages.map((_, i) => String(i + 1))) await runMenu(screens, [settings, '1', key], ctx);
    expect(chosen).toEqual([...languages]);
    const beyond = await runMenu(screens, [settings, '1', String(languages.length + 1)], ctx);
    expect(chosen).toHaveLength(languages.length);
    expect(beyond.end).toBe(false);
    // The menu's text names each language at its key, in every language.
    for (const reader of languages) {
      for (const [i, l] of languages.entries())
        expect(t(reader, 'ussd.chooseLanguage')).toContain(`${i + 1} ${nativeNames[l]}`);
    }
  });

  it("the phone's voice data holds the rules of every language a synthetic voice speaks, and of no other", () => {
    const dicts = VOICE_FILES.filter((f) => f.endsWith('_dict')).map((f) => f.slice(0, -'_dict'.length));
    expect(dicts).toEqual([...SYNTH_LANGUAGES]);
  });
});
