import path from 'node:path';
import {
  analysisApi,
  type AnalysisCrop,
  analysisList,
  type AnalysisList,
  type AdviceBook,
  type AnalysisResult,
  type ContentLanguage,
  type Language,
  type EducationalResource,
  confidencePercent,
  feedbackFor,
  resourceTopicsFor,
  type PageQuery,
  type ReviewVerdict,
  type RustClass,
  type AnalysisPhoto,
  MAX_FIELD_PHOTOS,
  secondPhotoAsk,
  type AnalysisSeverity,
  type SeverityAgreement,
  severityIsEstimate,
} from '@kutu/contract';
import { SEVERITY_BANDS, SEVERITY_CUTS, shownSeverity, thresholdsOf } from '@kutu/vision';
import type { OutbreakService } from '../outbreak/outbreak.service.ts';
import type { AnalysisFacts, FollowUpService, FollowUpView } from '../followup/followup.service.ts';
import type { ModuleDeps } from '../../deps.ts';
import type { AccessClaims } from '../../lib/tokens.ts';
import { type Message, message } from '../../i18n/i18n.ts';
import { badRequest, conflict, notFound } from '../../lib/errors.ts';
import { encodeJson, type JsonText } from '../../lib/json-text.ts';
import { createReadCache, createReadVersions } from '../../lib/read-cache.ts';
import { photoForStorage, type UploadedImage } from '../../lib/image-upload.ts';
import { pageWindow, toPage } from '../../lib/pagination.ts';
import {
  createAnalysisRepo,
  createResourcesRepo,
  type AnalysisRow,
  type PhotoRow,
  type ResourceRow,
} from './analysis.repo.ts';
import { fieldAnswer } from './field-answer.ts';
import { analysesByOutcome } from '../../lib/metrics.ts';
import type { AdviceService } from './advice.service.ts';
import { rustName } from '../review/review.texts.ts';

/** The farmer's notification of a finished analysis (the contract's `notificationMessage`, in every language). */
function analysisNotice(
  outcome: string,
  rustClass: RustClass | null,
  confidence: number,
  unsure: boolean,
  crop: string | null,
): Message {
  if (outcome === 'not_leaf' || !rustClass) return message('notifications.analysisNoLeaf');
  return message(unsure ? 'notifications.analysisUnsure' : 'notifications.analysisResult', {
    // Rust named for the crop (issue 37): bean rust on beans, common rust on maize.
    result: rustClass === 'common_rust' ? rustName(crop) : message(`notifications.classes.${rustClass}`),
    percent: confidencePercent(confidence),
  });
}

function toResource(row: ResourceRow): EducationalResource {
  return { title: row.title, url: row.url, description: row.description, link_language: row.linkLanguage };
}

function uniqueByUrl(list: EducationalResource[]): EducationalResource[] {
  const seen = new Set<string>();
  return list.filter((r) => !seen.has(r.url) && seen.add(r.url));
}

/** Where a photo taken at `now` is stored: one folder per month. */
const storageFolder = (now: Date) =>
  path.posix.join('analyses', String(now.getUTCFullYear()), String(now.getUTCMonth() + 1).padStart(2, '0'));

type Context = { byTopic: Map<string, EducationalResource[]>; book: AdviceBook; severityEstimate: boolean };

/**
 * How much of the leaf shows rust, for confident rust answers only (issue 35.5; docs/decisions/0045): the
 * stored rust-coloured share and its band (`shownSeverity`, which the phone's offline answer uses too).
 */
export function severityOf(
  row: Pick<AnalysisRow, 'outcome' | 'rustClass' | 'unsure' | 'rustShare'>,
  estimate: boolean,
): AnalysisSeverity | null {
  const shown = shownSeverity(row, row.rustShare);
  return shown && { ...shown, estimate };
}

const meanOf = (values: (number | null)[]) => {
  const known = values.filter((v): v is number => v !== null);
  return known.length > 0 ? known.reduce((a, b) => a + b, 0) / known.length : null;
};

/** An analysis as the follow-up reads it. */
const factsOf = (row: AnalysisRow): AnalysisFacts => ({
  ...row,
  rustClass: row.rustClass as RustClass | null,
  severity: row.rustShare,
});

export function createAnalysisService(
  deps: ModuleDeps,
  advice: AdviceService,
  outbreak: OutbreakService,
  followUps: FollowUpService,
) {
  const repo = createAnalysisRepo(deps.db);
  const resources = createResourcesRepo(deps.db);
  const limiter = deps.decodeLimiter;

  const versions = createReadVersions(deps.db);
  const history = createReadCache<JsonText>();

  /**
   * What results are shown with, in the reader's language (English where not translated): resources
   * by topic and the advice book (two small tables).
   */
  async function resultContext(language: ContentLanguage): Promise<Context> {
    const [byTopic, book, estimate] = await Promise.all([
      resourcesByTopic(language),
      advice.book(language),
      severityEstimate(),
    ]);
    return { byTopic, book, severityEstimate: estimate };
  }

  /**
   * Whether severity still reads "estimate": every result needs it, and it changes only when experts'
   * ratings cross SEVERITY_TRUST, so it is counted once per list-cache TTL, not once per result, and
   * forgotten in every process when a verdict is recorded (review.service).
   */
  const trust = deps.lists.of<boolean>('severity-trust');
  const severityEstimate = () =>
    trust.get('estimate', async () => ({ value: (await severityAgreement()).estimate, bytes: 8 }));

  /** Model and expert severity bands on reviewed confident rust answers (the field-accuracy page's figures). */
  async function severityAgreement(): Promise<SeverityAgreement> {
    const confusion = Object.fromEntries(
      SEVERITY_BANDS.map((m) => [m, Object.fromEntries(SEVERITY_BANDS.map((e) => [e, 0]))]),
    ) as Record<string, Record<string, number>>;
    let rated = 0;
    let agreed = 0;
    for (const { model, expert, n } of await repo.severityPairs(SEVERITY_CUTS)) {
      confusion[model][expert] += n;
      rated += n;
      if (model === expert) agreed += n;
    }
    return {
      rated,
      agreed,
      agreement: rated > 0 ? agreed / rated : null,
      confusion,
      estimate: severityIsEstimate(rated, agreed),
    };
  }

  async function resourcesByTopic(language: ContentLanguage): Promise<Map<string, EducationalResource[]>> {
    const byTopic = new Map<string, EducationalResource[]>();
    for (const row of await resources.listActive(language)) {
      const list = byTopic.get(row.rustClass) ?? [];
      list.push(toResource(row));
      byTopic.set(row.rustClass, list);
    }
    return byTopic;
  }

  /** The photos of an answer: its one photo, or (several) the field's, each with its own answer. */
  function photosOf(row: AnalysisRow, rows: PhotoRow[] | undefined): AnalysisPhoto[] {
    if (!rows || rows.length < 2) {
      const own = (row.rustClass as RustClass | null) ?? null;
      return [{ position: 0, url: analysisApi.imagePath(row.id), rust_class: own, confidence: row.confidence }];
    }
    return rows.map((p) => ({
      position: p.position,
      url: p.position === 0 ? analysisApi.imagePath(row.id) : analysisApi.photoPath(row.id, p.position),
      rust_class: p.rustClass as RustClass,
      confidence: p.confidence,
    }));
  }

  /** The photo rows of the analyses that have more than one (one query, none when no analysis has). */
  async function photoRows(rows: AnalysisRow[]): Promise<Map<number, PhotoRow[]>> {
    return repo.photosOf(rows.filter((r) => r.photoCount > 1).map((r) => r.id));
  }

  function toResult(
    row: AnalysisRow,
    { byTopic, book, severityEstimate }: Context,
    photos?: PhotoRow[],
    followUp?: FollowUpView,
  ): AnalysisResult {
    const rustClass = (row.rustClass as RustClass | null) ?? null;
    return {
      ...followUp,
      id: row.id,
      outcome: row.outcome,
      rust_class: rustClass,
      confidence: row.confidence,
      unsure: row.unsure,
      probabilities: row.probabilities,
      educational_resources: uniqueByUrl(resourceTopicsFor({ ...row, rustClass }).flatMap((t) => byTopic.get(t) ?? [])),
      feedback: feedbackFor(
        { outcome: row.outcome, rustClass, confidence: row.confidence, unsure: row.unsure, crop: row.crop },
        book,
      ),
      model_version: row.modelVersion,
      created_at: row.createdAt.toISOString(),
      image_url: analysisApi.imagePath(row.id),
      crop: row.crop,
      heatmap_url: row.heatmapPath ? analysisApi.heatmapPath(row.id) : null,
      photos: photosOf(row, photos),
      second_photo: secondPhotoAsk({
        outcome: row.outcome,
        unsure: row.unsure,
        probabilities: row.probabilities,
        photo_count: row.photoCount,
      }),
      severity: severityOf(row, severityEstimate),
    };
  }

  /** An analysis the caller may see: their own, or any for an expert (who reviews them). */
  async function visibleAnalysis(who: AccessClaims, id: number): Promise<AnalysisRow> {
    const row = await repo.findById(id);
    if (!row || (row.userId !== who.userId && who.role !== 'expert')) throw notFound('errors.analysis.notFound');
    return row;
  }

  async function ownAnalysis(who: AccessClaims, id: number): Promise<AnalysisRow> {
    const row = await repo.findById(id);
    // Someone else's analysis reads as missing: its existence is not theirs to know.
    if (!row || row.userId !== who.userId) throw notFound('errors.analysis.notFound');
    return row;
  }

  /** The model's answer and the photo as stored, under the caller's share of the decode limiter. */
  function classifyAndShrink(who: AccessClaims, image: UploadedImage, crop: AnalysisCrop | null | undefined) {
    return limiter.run(who.userId, async () => {
      const classifier = deps.classifier.current();
      const [diagnosis, photo] = await Promise.all([
        classifier.classify(image.buffer, { crop }),
        photoForStorage(image),
      ]);
      return { diagnosis, photo };
    });
  }

  /** 409 unless the answer still asks for another photo (limit first: it says what the farmer can do). */
  function refuseMorePhotos(row: AnalysisRow): void {
    if (row.photoCount >= MAX_FIELD_PHOTOS)
      throw conflict(message('errors.analysis.photoLimit', { max: MAX_FIELD_PHOTOS }));
    const ask = secondPhotoAsk({ ...row, photo_count: row.photoCount });
    if (!ask.reason) throw conflict('errors.analysis.answerIsSure');
  }

  async function stored(imagePath: string) {
    const { body, size } = await deps.storage.stream(imagePath).catch(() => {
      throw notFound('errors.analysis.photoGone');
    });
    return { data: body, size, contentType: imagePath.endsWith('.png') ? 'image/png' : 'image/jpeg' };
  }

  return {
    severityAgreement,

    /** The caller's analysis made earlier with this idempotency key, if any. */
    async byIdempotencyKey(
      who: AccessClaims,
      key: string,
      language: ContentLanguage = 'en',
    ): Promise<AnalysisResult | null> {
      const row = await repo.findByKey(who.userId, key);
      return row ? this.resultOf(row, language) : null;
    },

    /**
     * Classifies a validated photo, stores photo and result, and notifies the farmer. With an
     * idempotency key that the caller already used (a concurrent retry that passed the route's
     * lookup), the stored files are removed and the first analysis is returned with `created` false.
     */
    async analyse(
      who: AccessClaims,
      image: UploadedImage,
      opts: { crop?: AnalysisCrop; idempotencyKey?: string; language?: ContentLanguage; followUpOf?: number } = {},
    ): Promise<{ result: AnalysisResult; created: boolean }> {
      // A follow-up of someone else's diagnosis reads as a missing one, before any work (0044).
      if (opts.followUpOf) await ownAnalysis(who, opts.followUpOf);
      const { diagnosis, photo } = await classifyAndShrink(who, image, opts.crop);
      // Where the model looked (a transparent PNG); null for a photo without a leaf.
      const heatmap = diagnosis.heatmap_png;
      const now = deps.clock.now();
      const folder = storageFolder(now);
      const key = await deps.storage.put(folder, photo.data, photo.ext);
      const heatmapKey = heatmap ? await deps.storage.put(folder, heatmap, 'png') : null;
      const notLeaf = diagnosis.outcome === 'not_leaf' || diagnosis.rust_class === null;
      const removeFiles = async () => {
        await deps.storage.remove(key).catch(() => {});
        if (heatmapKey) await deps.storage.remove(heatmapKey).catch(() => {});
      };
      let row: AnalysisRow | undefined;
      try {
        row = await repo.insertOnce({
          userId: who.userId,
          imagePath: key,
          outcome: notLeaf ? 'not_leaf' : 'diagnosis',
          // Never a crop label for a photo that shows no leaf.
          rustClass: notLeaf ? null : diagnosis.rust_class,
          confidence: diagnosis.confidence,
          unsure: notLeaf ? false : diagnosis.unsure,
          probabilities: diagnosis.probabilities,
          leafScore: diagnosis.leaf_score,
          oodScore: diagnosis.ood_score,
          rustShare: notLeaf ? null : (diagnosis.rust_share ?? null),
          modelVersion: diagnosis.model_version,
          crop: opts.crop ?? null,
          heatmapPath: heatmapKey,
          idempotencyKey: opts.idempotencyKey ?? null,
          createdAt: now,
        });
      } catch (err) {
        await removeFiles();
        throw err;
      }
      if (!row) {
        await removeFiles();
        const first = await repo.findByKey(who.userId, opts.idempotencyKey ?? '');
        if (!first) throw new Error('Idempotency conflict without a stored analysis');
        return { result: await this.resultOf(first, opts.language ?? 'en'), created: false };
      }
      analysesByOutcome.inc({
        outcome: row.outcome === 'not_leaf' ? 'not_leaf' : row.unsure ? 'unsure' : row.rustClass!,
      });
      await deps.notifications.notify(
        who.userId,
        'image_analysis',
        analysisNotice(row.outcome, row.rustClass as RustClass | null, row.confidence, row.unsure, row.crop),
        { analysis_id: row.id, outcome: row.outcome, rust_class: row.rustClass },
      );
      // A confident rust diagnosis is a reported case in the farmer's district (issue 36).
      await outbreak.record(row.id);
      // This photo answers (or cancels) the field's reminder; advice to treat opens the next (0044).
      await followUps.afterAnalysis(factsOf(row), opts.followUpOf);
      return { result: await this.resultOf(row, opts.language ?? 'en'), created: true };
    },

    /**
     * The caller's history page encoded as the route sends it, cached per user, page and language
     * until a write raises the user's read version (their analyses and the reviews of them) or the
     * shared one (resources, advice): docs/decisions/0036. `languageOf` turns the account's stored
     * language (read with the version, one query) into the request's (plugins/language.ts).
     */
    async listJson(
      who: AccessClaims,
      page: PageQuery,
      languageOf: (stored: Language | undefined) => ContentLanguage,
    ): Promise<JsonText> {
      const [{ stamp, language: stored }, estimate] = await Promise.all([versions.of(who.userId), severityEstimate()]);
      const language = languageOf(stored);
      const { limit, offset } = pageWindow(page);
      // The severity's wording is shared by every farmer, not in their read version: it is in the key.
      const key = `${who.userId}\n${limit}\n${offset}\n${language}\n${estimate}`;
      return history.get(key, stamp, async () => {
        const body = encodeJson(analysisList, await this.list(who, page, language));
        return { value: body, bytes: body.json.length };
      });
    },

    async list(who: AccessClaims, page: PageQuery, language: ContentLanguage = 'en'): Promise<AnalysisList> {
      const [rows, count, context] = await Promise.all([
        repo.listForUser(who.userId, pageWindow(page)),
        repo.countForUser(who.userId),
        resultContext(language),
      ]);
      // History marks the photos an expert reviewed, with the verdict (issue 37).
      const ids = rows.map((r) => r.id);
      const [verdicts, photos, views] = await Promise.all([
        repo.verdictsFor(ids),
        photoRows(rows),
        followUps.views(ids),
      ]);
      return toPage(
        rows.map((r) => ({
          ...toResult(r, context, photos.get(r.id), views.get(r.id)),
          expert_verdict: (verdicts.get(r.id) as ReviewVerdict) ?? null,
        })),
        count,
        page,
      );
    },

    async get(who: AccessClaims, id: number, language: ContentLanguage = 'en'): Promise<AnalysisResult> {
      return this.resultOf(await ownAnalysis(who, id), language);
    },

    /** One analysis as its result, with its photos and follow-up. */
    async resultOf(row: AnalysisRow, language: ContentLanguage): Promise<AnalysisResult> {
      const [context, photos, views] = await Promise.all([
        resultContext(language),
        photoRows([row]),
        followUps.views([row.id]),
      ]);
      return toResult(row, context, photos.get(row.id), views.get(row.id));
    },

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
      const [rows, context, views] = await Promise.all([
        repo.findByIds(ids),
        resultContext(language),
        followUps.views(ids),
      ]);
      const photos = await photoRows(rows);
      return new Map(
        rows.map((r) => [r.id, { ...toResult(r, context, photos.get(r.id), views.get(r.id)), userId: r.userId }]),
      );
    },

    /** Owner and model facts of one analysis, for features built on it (review); 404 when missing. */
    async facts(id: number): Promise<AnalysisRow> {
      const row = await repo.findById(id);
      if (!row) throw notFound('errors.analysis.notFound');
      return row;
    },

    /**
     * Another leaf of the same field for an unsure or close answer (docs/decisions/0040): only its
     * owner, only while the answer asks for one, at most MAX_FIELD_PHOTOS photos. The photo is
     * classified like the first (same decode limiter, same crop); one without a leaf is refused and
     * nothing is kept. The analysis then holds the field-level answer of all its photos, and its
     * outbreak case follows that answer.
     */
    /**
     * Before the photo is read: the answer as it stands when this idempotency key already added its
     * photo (a queued upload retried), else null once the caller may add one (owner, still asking).
     */
    async beforeAddPhoto(
      who: AccessClaims,
      id: number,
      key: string | undefined,
      language: ContentLanguage = 'en',
    ): Promise<AnalysisResult | null> {
      const row = await ownAnalysis(who, id);
      if (key && (await repo.findPhotoByKey(id, key))) return this.get(who, id, language);
      refuseMorePhotos(row);
      return null;
    },

    async addPhoto(
      who: AccessClaims,
      id: number,
      image: UploadedImage,
      opts: { language?: ContentLanguage; idempotencyKey?: string } = {},
    ): Promise<AnalysisResult> {
      const language = opts.language ?? 'en';
      const before = await ownAnalysis(who, id);
      refuseMorePhotos(before);
      const { diagnosis, photo } = await classifyAndShrink(who, image, before.crop);
      if (diagnosis.outcome === 'not_leaf' || diagnosis.rust_class === null) {
        throw badRequest('errors.analysis.extraNotLeaf', { image: 'errors.analysis.extraNotLeaf' });
      }
      const folder = storageFolder(deps.clock.now());
      const key = await deps.storage.put(folder, photo.data, photo.ext);
      const heatmapKey = diagnosis.heatmap_png ? await deps.storage.put(folder, diagnosis.heatmap_png, 'png') : null;
      const removeFiles = async () => {
        await deps.storage.remove(key).catch(() => {});
        if (heatmapKey) await deps.storage.remove(heatmapKey).catch(() => {});
      };
      // The same queued photo sent twice at once (one idempotency key): the first one added it.
      const retryKey = opts.idempotencyKey;
      const addedBefore = async () => Boolean(retryKey && (await repo.findPhotoByKey(id, retryKey)));
      // The served model's thresholds decide the field answer, as they decided each photo.
      const served = deps.classifier.current();
      let added: Awaited<ReturnType<typeof repo.addPhoto>>;
      try {
        added = await repo.addPhoto(
          id,
          before.photoCount,
          {
            imagePath: key,
            heatmapPath: heatmapKey,
            rustClass: diagnosis.rust_class,
            confidence: diagnosis.confidence,
            probabilities: diagnosis.probabilities,
            leafScore: diagnosis.leaf_score,
            oodScore: diagnosis.ood_score,
            rustShare: diagnosis.rust_share ?? null,
            modelVersion: diagnosis.model_version,
            idempotencyKey: opts.idempotencyKey ?? null,
            createdAt: deps.clock.now(),
          },
          (photos) => {
            const answer = fieldAnswer(photos, thresholdsOf(served.card), served.version);
            return {
              rustClass: answer.rust_class,
              confidence: answer.confidence,
              unsure: answer.unsure,
              probabilities: answer.probabilities,
              leafScore: answer.leaf_score,
              oodScore: answer.ood_score,
              modelVersion: answer.model_version,
              // The field's severity: the mean of its photos' shares.
              rustShare: meanOf(photos.map((p) => p.rustShare)),
            };
          },
        );
      } catch (err) {
        await removeFiles();
        if (await addedBefore()) return this.get(who, id, language);
        throw err;
      }
      if (!added) {
        await removeFiles();
        if (await addedBefore()) return this.get(who, id, language);
        throw conflict('errors.analysis.photoChanged');
      }
      // A combined answer that became (or stopped being) confident rust moves the district's counts.
      await outbreak.record(id);
      // An answer that became (or stopped being) one to treat gains (or drops) its reminder; a follow-up
      // photo's comparison is made again with the field answer (decision 0044, addendum).
      await followUps.answerChanged(factsOf(added.row));
      return toResult(added.row, await resultContext(language), added.photos, (await followUps.views([id])).get(id));
    },

    /** Photo `position` of an answer (0 is the first): same access as the first photo. */
    async photoAt(who: AccessClaims, id: number, position: number) {
      const row = await visibleAnalysis(who, id);
      const imagePath = position === 0 ? row.imagePath : (await repo.findPhoto(id, position))?.imagePath;
      if (!imagePath) throw notFound('errors.analysis.photoNotFound');
      return stored(imagePath);
    },

    /** The heatmap of where the model looked: same access as the photo. */
    async heatmap(who: AccessClaims, id: number) {
      const row = await visibleAnalysis(who, id);
      if (!row.heatmapPath) throw notFound('errors.analysis.noHeatmap');
      const { body, size } = await deps.storage.stream(row.heatmapPath).catch(() => {
        throw notFound('errors.analysis.heatmapGone');
      });
      return { data: body, size, contentType: 'image/png' };
    },

    /** The stored photo: for its owner, and for experts (who review photos and label them). */
    async photo(who: AccessClaims, id: number) {
      const row = await visibleAnalysis(who, id);
      return stored(row.imagePath);
    },
  };
}
export type AnalysisService = ReturnType<typeof createAnalysisService>;
