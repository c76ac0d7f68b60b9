import type {
  ContentLanguage,
  EducationResource,
  EducationResourceList,
  EducationResourcesQuery,
  PageQuery,
  ResourceTopic,
} from '@kutu/contract';
import type { z } from 'zod';
import type { educationResourceInput, educationResourceTranslationInput, TranslationLanguage } from '@kutu/contract';
import type { ModuleDeps } from '../../deps.ts';
import type { AccessClaims } from '../../lib/tokens.ts';
import { forbidden, notFound } from '../../lib/errors.ts';
import { pageWindow, toPage } from '../../lib/pagination.ts';
import { createResourcesRepo, type ResourceRow } from './analysis.repo.ts';

type ResourceInput = z.output<typeof educationResourceInput>;
type TranslationInput = z.output<typeof educationResourceTranslationInput>;

export function toEducationResource(row: ResourceRow): EducationResource {
  return {
    id: row.id,
    rust_class: row.rustClass as ResourceTopic,
    crop: row.crop,
    title: row.title,
    url: row.url,
    description: row.description,
    link_language: row.linkLanguage,
    language: row.language ?? 'en',
    position: row.position,
    retired: row.retiredAt !== null,
    created_at: row.createdAt.toISOString(),
  };
}

/**
 * Education resources: everyone signed in reads them (title and description in their language where
 * translated); experts add, edit and retire them (editing writes the English text).
 */
export function createResourcesService(deps: ModuleDeps) {
  const repo = createResourcesRepo(deps.db);

  async function existing(id: number): Promise<ResourceRow> {
    const row = await repo.findById(id);
    if (!row) throw notFound('errors.analysis.resourceNotFound');
    return row;
  }

  return {
    /** Every resource not retired, in `language` where translated (the offline pack's advice links). */
    listActive(language: ContentLanguage = 'en'): Promise<ResourceRow[]> {
      return repo.listActive(language);
    },

    async list(
      who: AccessClaims,
      query: PageQuery & Pick<EducationResourcesQuery, 'rust_class' | 'include_retired'>,
      language: ContentLanguage = 'en',
    ): Promise<EducationResourceList> {
      const includeRetired = query.include_retired === 'true';
      if (includeRetired && who.role !== 'expert') throw forbidden('errors.analysis.retiredExpertsOnly');
      const filter = { rustClass: query.rust_class, includeRetired };
      const [rows, count] = await Promise.all([repo.list(filter, pageWindow(query), language), repo.count(filter)]);
      return toPage(rows.map(toEducationResource), count, query);
    },

    async create(who: AccessClaims, input: ResourceInput): Promise<EducationResource> {
      const now = deps.clock.now();
      const row = await repo.insert({
        rustClass: input.rust_class,
        crop: input.crop,
        title: input.title,
        url: input.url,
        description: input.description,
        linkLanguage: input.link_language,
        position: input.position,
        updatedBy: who.userId,
        createdAt: now,
        updatedAt: now,
      });
      return toEducationResource(row);
    },

    async update(who: AccessClaims, id: number, input: ResourceInput): Promise<EducationResource> {
      await existing(id);
      const row = await repo.update(id, {
        rustClass: input.rust_class,
        crop: input.crop,
        title: input.title,
        url: input.url,
        description: input.description,
        linkLanguage: input.link_language,
        position: input.position,
        updatedBy: who.userId,
        updatedAt: deps.clock.now(),
      });
      if (!row) throw notFound('errors.analysis.resourceNotFound');
      return toEducationResource(row);
    },

    /** Writes the resource's title and description in `language` (the link, class and order are shared). */
    async translate(
      who: AccessClaims,
      id: number,
      language: TranslationLanguage,
      text: TranslationInput,
    ): Promise<EducationResource> {
      await existing(id);
      await repo.saveTranslation(id, language, text);
      await repo.update(id, { updatedBy: who.userId, updatedAt: deps.clock.now() });
      const row = await repo.findIn(id, language);
      if (!row) throw notFound('errors.analysis.resourceNotFound');
      return toEducationResource(row);
    },

    /** Readers in `language` see the English text again. */
    async removeTranslation(who: AccessClaims, id: number, language: TranslationLanguage): Promise<void> {
      await existing(id);
      await repo.deleteTranslation(id, language);
      await repo.update(id, { updatedBy: who.userId, updatedAt: deps.clock.now() });
    },

    /** Retiring keeps the row (results shown before still make sense) but stops showing it. */
    async retire(who: AccessClaims, id: number): Promise<void> {
      const row = await existing(id);
      if (row.retiredAt) return;
      const now = deps.clock.now();
      await repo.update(id, { retiredAt: now, updatedBy: who.userId, updatedAt: now });
    },
  };
}
export type ResourcesService = ReturnType<typeof createResourcesService>;
