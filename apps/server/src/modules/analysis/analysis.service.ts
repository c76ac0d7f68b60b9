import {
  analysisList,
  type AnalysisList,
  type AnalysisResult,
  type ContentLanguage,
  type Language,
  type PageQuery,
} from '@kutu/contract';
import type { OutbreakService } from '../outbreak/outbreak.service.ts';
import type { FollowUpService } from '../followup/followup.service.ts';
import type { FieldsService } from '../fields/fields.service.ts';
import type { FieldCuts } from '../training/field-cuts.service.ts';
import type { ModuleDeps } from '../../deps.ts';
import type { AccessClaims } from '../../lib/tokens.ts';
import { notFound } from '../../lib/errors.ts';
import { encodeJson, type JsonText } from '../../lib/json-text.ts';
import { createReadCache, createReadVersions } from '../../lib/read-cache.ts';
import { pageWindow, toPage } from '../../lib/pagination.ts';
import { type AnalysisRow, createAnalysisRepo, createResourcesRepo, type DecisionFacts } from './analysis.repo.ts';
import type { AdviceService } from './advice.service.ts';
import { createAnalysisAccess } from './analysis-access.ts';
import { createResultBuilder } from './analysis-results.ts';
import { classifierOf } from './classify.ts';
import { createFieldPhotos } from './field-photos.ts';
import { createNewAnalysis } from './new-analysis.ts';
import { createPhotoFiles } from './photo-files.ts';

/** What the review module reads of an expert's verdict (the one door into this module: its services). */
export { answerOfVerdict } from './expert-answer.ts';
/** An analysis's answer as other modules' queries join it (a booking's, a post's linked photo). */
export { analysisFacts } from './facts.repo.ts';
/** A field's photos as the fields module's queries ask about them (its `FieldPhotos` port, through services.ts). */
export { fieldPhotoSql } from './facts.repo.ts';
/** A diagnosis as the follow-ups compare and list it (their `FollowUpSources`, through services.ts). */
export { diagnosisFacts } from './facts.repo.ts';
/** An analysis as the outbreak watch counts it (its `OutbreakSources`, through services.ts). */
export { analysisCaseSql } from './facts.repo.ts';
/** An analysis as training reads it (its `TrainingSources`, through services.ts). */
export { sampleSourceFacts } from './facts.repo.ts';
/** Which upload keys an analysis refers to (the orphan photo sweep's `PhotoOwner`, through ports.ts). */
export { analysisPhotoKeys } from './facts.repo.ts';
/** A try-out photo of a demo farmer (`npm run outbreak:demo`, the only caller). */
export { addDemoAnalysis } from './demo-analyses.ts';

/**
 * The analysis module's one service, which routes and other modules use. Its jobs live beside it: a
 * new analysis (new-analysis.ts), more photos of a field (field-photos.ts), results as the farmer reads
 * them (analysis-results.ts), stored files (photo-files.ts), who may reach one (analysis-access.ts);
 * here are the reads: history (cached), one result, results for other features.
 */
export function createAnalysisService(
  deps: ModuleDeps,
  advice: AdviceService,
  outbreak: OutbreakService,
  followUps: FollowUpService,
  fields: FieldsService,
  cuts: Pick<FieldCuts, 'appliedFor' | 'settingsFor'>,
  decisions: DecisionFacts,
) {
  const repo = createAnalysisRepo(deps.db, decisions);
  const resources = createResourcesRepo(deps.db);
  const access = createAnalysisAccess(repo);
  const results = createResultBuilder(deps, repo, resources, advice, followUps);
  const classifyAndShrink = classifierOf(deps, cuts);
  const { resultContext, severityEstimate, photoRows, aboutAnalyses, toResult, resultOf } = results;
  const { ownAnalysis } = access;

  const versions = createReadVersions(deps.db);
  const history = createReadCache<JsonText>();

  /** The caller's history page; with `fieldId`, one of the caller's fields (another's is 404), only its photos. */
  async function list(
    who: AccessClaims,
    page: PageQuery,
    language: ContentLanguage = 'en',
    fieldId?: number,
  ): Promise<AnalysisList> {
    if (fieldId !== undefined) await fields.own(who, fieldId);
    const [rows, count, context] = await Promise.all([
      repo.listForUser(who.userId, pageWindow(page), fieldId),
      repo.countForUser(who.userId, fieldId),
      resultContext(language),
    ]);
    // History leads with the expert's answer where there is one (docs/decisions/0049).
    const [photos, about] = await Promise.all([photoRows(rows), aboutAnalyses(rows.map((r) => r.id))]);
    return toPage(
      rows.map((r) => toResult(r, context, photos.get(r.id), about(r.id))),
      count,
      page,
    );
  }

  return {
    severityAgreement: results.severityAgreement,
    analyse: createNewAnalysis(deps, repo, access, results, classifyAndShrink, outbreak, followUps, fields),
    ...createFieldPhotos(deps, repo, access, results, classifyAndShrink, outbreak, followUps, cuts),
    ...createPhotoFiles(deps, repo, access),

    /** The caller's analysis made earlier with this idempotency key, if any. */
    async byIdempotencyKey(
      who: AccessClaims,
      key: string,
      language: ContentLanguage = 'en',
    ): Promise<AnalysisResult | null> {
      const row = await repo.findByKey(who.userId, key);
      return row ? resultOf(row, language) : null;
    },

    /**
     * The caller's history page encoded as the route sends it, cached per user, page and language
     * until a write raises the user's read version (their analyses and the reviews of them) or the
     * shared one (resources, advice): docs/decisions/0036. `languageOf` turns the account's stored
     * language (read with the version, one query) into the request's (plugins/language.ts).
     */
    async listJson(
      who: AccessClaims,
      page: PageQuery & { field?: number },
      languageOf: (stored: Language | undefined) => ContentLanguage,
    ): Promise<JsonText> {
      const [{ stamp, language: stored }, estimate] = await Promise.all([versions.of(who.userId), severityEstimate()]);
      const language = languageOf(stored);
      const { limit, offset } = pageWindow(page);
      // The severity's wording is shared by every farmer, not in their read version: it is in the key.
      const key = `${who.userId}\n${limit}\n${offset}\n${language}\n${estimate}\n${page.field ?? ''}`;
      return history.get(key, stamp, async () => {
        const body = encodeJson(analysisList, await list(who, page, language, page.field));
        return { value: body, bytes: body.json.length };
      });
    },

    list,

    async get(who: AccessClaims, id: number, language: ContentLanguage = 'en'): Promise<AnalysisResult> {
      return resultOf(await ownAnalysis(who, id), language);
    },

    /** One analysis as its result, with its photos and follow-up. */
    resultOf,

    /** The farmer is looking at this result: its notification is no news any more. */
    async seen(who: AccessClaims, id: number): Promise<{ updated: number }> {
      await ownAnalysis(who, id);
      const updated = await deps.notifications.markReadAbout(who.userId, 'image_analysis', { analysis_id: id });
      return { updated };
    },

    /** Results by id for features that list analyses (the review queue); the caller checks access. */
    async resultsByIds(
      ids: number[],
      language: ContentLanguage = 'en',
    ): Promise<Map<number, AnalysisResult & { userId: number }>> {
      if (ids.length === 0) return new Map();
      const [rows, context, about] = await Promise.all([
        repo.findByIds(ids),
        resultContext(language),
        aboutAnalyses(ids),
      ]);
      const photos = await photoRows(rows);
      return new Map(
        rows.map((r) => [r.id, { ...toResult(r, context, photos.get(r.id), about(r.id)), userId: r.userId }]),
      );
    },

    /** Owner and model facts of one analysis, for features built on it (review); 404 when missing. */
    async facts(id: number): Promise<AnalysisRow> {
      const row = await repo.findById(id);
      if (!row) throw notFound('errors.analysis.notFound');
      return row;
    },
  };
}
export type AnalysisService = ReturnType<typeof createAnalysisService>;
