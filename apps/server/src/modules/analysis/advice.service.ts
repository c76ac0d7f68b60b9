import {
  AdviceBook,
  type AdviceCrop,
  type AdviceItem,
  type AdviceList,
  type AdviceTopic,
  type adviceInput,
  type ContentLanguage,
} from '@kutu/contract';
import type { z } from 'zod';
import type { ModuleDeps } from '../../deps.ts';
import { notFound } from '../../lib/errors.ts';
import type { AccessClaims } from '../../lib/tokens.ts';
import { type AdviceRow, createAdviceRepo } from './advice.repo.ts';

type AdviceInput = z.output<typeof adviceInput>;

export function toAdviceItem(row: AdviceRow): AdviceItem {
  return {
    id: row.id,
    topic: row.topic as AdviceTopic,
    crop: row.crop as AdviceCrop,
    language: row.language,
    headline: row.headline,
    steps: row.steps,
    more: row.more,
    sources: row.sources,
    updated_at: row.updatedAt.toISOString(),
  };
}

/**
 * One entry per topic and crop, in `language` where it is written in it, else the English one: a
 * missing translation falls back for that entry only.
 */
export function inLanguage(rows: AdviceRow[], language: ContentLanguage): AdviceRow[] {
  const translated = new Map(
    rows.filter((r) => r.language === language).map((r) => [`${r.topic}/${r.crop}`, r] as const),
  );
  return rows
    .filter((r) => r.language === 'en')
    .map((english) => translated.get(`${english.topic}/${english.crop}`) ?? english);
}

/** Advice shown with results: everyone signed in reads it; experts edit it (server-side role check in routes). */
export function createAdviceService(deps: ModuleDeps) {
  const repo = createAdviceRepo(deps.db);

  async function items(language: ContentLanguage): Promise<AdviceItem[]> {
    return inLanguage(await repo.listAll(), language).map(toAdviceItem);
  }

  return {
    async list(language: ContentLanguage = 'en'): Promise<AdviceList> {
      return { results: await items(language) };
    },

    async book(language: ContentLanguage = 'en'): Promise<AdviceBook> {
      return new AdviceBook(await items(language));
    },

    /** Edits one entry by id, in the language that entry is written in. */
    async update(who: AccessClaims, id: number, input: AdviceInput): Promise<AdviceItem> {
      const row = await repo.update(id, {
        headline: input.headline,
        steps: input.steps,
        more: input.more,
        updatedBy: who.userId,
        updatedAt: deps.clock.now(),
      });
      if (!row) throw notFound('errors.analysis.adviceNotFound');
      return toAdviceItem(row);
    },
  };
}
export type AdviceService = ReturnType<typeof createAdviceService>;
