import {
  AdviceBook,
  type AdviceCrop,
  type AdviceItem,
  type AdviceList,
  type AdviceTopic,
  type adviceInput,
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
    headline: row.headline,
    steps: row.steps,
    more: row.more,
    sources: row.sources,
    updated_at: row.updatedAt.toISOString(),
  };
}

/** Advice shown with results: everyone signed in reads it; experts edit it (server-side role check in routes). */
export function createAdviceService(deps: ModuleDeps) {
  const repo = createAdviceRepo(deps.db);
  return {
    async list(): Promise<AdviceList> {
      return { results: (await repo.listAll()).map(toAdviceItem) };
    },

    async book(): Promise<AdviceBook> {
      return new AdviceBook((await repo.listAll()).map(toAdviceItem));
    },

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
