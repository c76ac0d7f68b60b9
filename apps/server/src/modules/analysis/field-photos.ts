import { type AnalysisResult, type ContentLanguage, MAX_FIELD_PHOTOS } from '@kutu/contract';
import { fieldRustShare, joinsField, printFromText, sameLeaf } from '@kutu/vision';
import type { OutbreakService } from '../outbreak/outbreak.service.ts';
import type { FollowUpService } from '../followup/followup.service.ts';
import type { ModuleDeps } from '../../deps.ts';
import type { FieldCuts } from '../training/field-cuts.service.ts';
import type { AccessClaims } from '../../lib/tokens.ts';
import { message } from '../../i18n/i18n.ts';
import { badRequest, conflict } from '../../lib/errors.ts';
import type { UploadedImage } from '../../lib/image-upload.ts';
import type { AnalysisRow, createAnalysisRepo } from './analysis.repo.ts';
import type { AnalysisAccess } from './analysis-access.ts';
import type { ResultBuilder } from './analysis-results.ts';
import { type ClassifyAndShrink, factsOf, storageFolder } from './classify.ts';
import { fieldAnswer } from './field-answer.ts';
import { analysisNotice, analysisNoticeData } from './analysis.texts.ts';

/** 409 at the limit, or for a photo with no leaf (it is no field to add leaves to); sure or not, leaves may join. */
function refuseMorePhotos(row: AnalysisRow): void {
  if (row.photoCount >= MAX_FIELD_PHOTOS)
    throw conflict(message('errors.analysis.photoLimit', { max: MAX_FIELD_PHOTOS }));
  if (row.outcome !== 'diagnosis') throw conflict('errors.analysis.noLeafToAddTo');
}

/** Whether this print shows a leaf already in the answer (its first photo or one added since). */
async function alreadyIn(repo: ReturnType<typeof createAnalysisRepo>, row: AnalysisRow, print: string) {
  const added = row.photoCount > 1 ? ((await repo.photosOf([row.id])).get(row.id) ?? []) : [];
  const prints = [row.leafPrint, ...added.filter((p) => p.position > 0).map((p) => p.leafPrint)];
  const mine = printFromText(print);
  return prints.some((p) => p !== null && sameLeaf(printFromText(p), mine));
}

/**
 * Another leaf of the same field for an unsure or close answer (docs/decisions/0040): only its
 * owner, only while the answer asks for one, at most MAX_FIELD_PHOTOS photos. The photo is
 * classified like the first (same decode limiter, same crop); one without a leaf is refused and
 * nothing is kept; so is a photo of a leaf already in the answer (the same photo, cropped, mirrored or
 * re-exposed: one leaf counts once, `sameLeaf`). The analysis then holds the field-level answer of all its photos, and its
 * outbreak case follows that answer.
 */
export function createFieldPhotos(
  deps: ModuleDeps,
  repo: ReturnType<typeof createAnalysisRepo>,
  { ownAnalysis }: AnalysisAccess,
  results: ResultBuilder,
  classifyAndShrink: ClassifyAndShrink,
  outbreak: OutbreakService,
  followUps: FollowUpService,
  cuts: Pick<FieldCuts, 'settingsFor'>,
) {
  const get = async (who: AccessClaims, id: number, language: ContentLanguage) =>
    results.resultOf(await ownAnalysis(who, id), language);

  return {
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
      if (key && (await repo.findPhotoByKey(id, key))) return get(who, id, language);
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
      const { diagnosis, photo, print } = await classifyAndShrink(who, image, before.crop);
      if (!joinsField(diagnosis)) {
        throw badRequest('errors.analysis.extraNotLeaf', { image: 'errors.analysis.extraNotLeaf' });
      }
      // The same queued photo sent twice at once (one idempotency key): the first one added it.
      const retryKey = opts.idempotencyKey;
      const addedBefore = async () => Boolean(retryKey && (await repo.findPhotoByKey(id, retryKey)));
      // One leaf counts once; a queued retry of a photo already added is no second leaf (its first try added it).
      if (await alreadyIn(repo, before, print)) {
        if (await addedBefore()) return get(who, id, language);
        throw conflict('errors.analysis.sameLeaf', { image: 'errors.analysis.sameLeaf' });
      }
      const folder = storageFolder(deps.clock.now());
      const key = await deps.storage.put(folder, photo.data, photo.ext);
      const heatmapKey = diagnosis.heatmap_png ? await deps.storage.put(folder, diagnosis.heatmap_png, 'png') : null;
      const removeFiles = async () => {
        await deps.storage.remove(key).catch(() => {});
        if (heatmapKey) await deps.storage.remove(heatmapKey).catch(() => {});
      };
      // The served model's card decides the field answer, with the crop's unsure cut, as they decided each photo.
      const served = await cuts.settingsFor(before.crop);
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
            leafPrint: print,
            modelVersion: diagnosis.model_version,
            idempotencyKey: opts.idempotencyKey ?? null,
            createdAt: deps.clock.now(),
          },
          (photos) => {
            const answer = fieldAnswer(photos, served);
            return {
              rustClass: answer.rust_class,
              rustLeaves: answer.rust_leaves,
              confidence: answer.confidence,
              unsure: answer.unsure,
              probabilities: answer.probabilities,
              leafScore: answer.leaf_score,
              oodScore: answer.ood_score,
              modelVersion: answer.model_version,
              // The field's severity: the mean of its photos' measured shares (as the phone's).
              rustShare: fieldRustShare(photos.map((p) => p.rustShare)),
            };
          },
        );
      } catch (err) {
        await removeFiles();
        if (await addedBefore()) return get(who, id, language);
        throw err;
      }
      if (!added) {
        await removeFiles();
        if (await addedBefore()) return get(who, id, language);
        throw conflict('errors.analysis.photoChanged');
      }
      // The farmer's notice of this analysis now tells the field's answer and its leaves: one notice, right.
      await deps.notifications.restate(
        who.userId,
        'image_analysis',
        { analysis_id: id },
        analysisNotice(added.row),
        analysisNoticeData(added.row),
      );
      // A combined answer that became (or stopped being) confident rust moves the district's counts.
      await outbreak.record(id);
      // An answer that became (or stopped being) one to treat gains (or drops) its reminder; a follow-up
      // photo's comparison is made again with the field answer (decision 0044, addendum).
      await followUps.answerChanged(factsOf(added.row));
      const { resultContext, toResult, aboutAnalyses } = results;
      return toResult(added.row, await resultContext(language), added.photos, (await aboutAnalyses([id]))(id));
    },
  };
}
