import type { AnalysisResult } from '@kutu/contract';
import type { OutbreakService } from '../outbreak/outbreak.service.ts';
import type { FollowUpService } from '../followup/followup.service.ts';
import type { FieldsService } from '../fields/fields.service.ts';
import type { ModuleDeps } from '../../deps.ts';
import type { AccessClaims } from '../../lib/tokens.ts';
import type { UploadedImage } from '../../lib/image-upload.ts';
import { analysesByOutcome } from '../../lib/metrics.ts';
import type { AnalysisRow, createAnalysisRepo } from './analysis.repo.ts';
import type { AnalyseOptions } from './analyse-options.ts';
import type { AnalysisAccess } from './analysis-access.ts';
import type { ResultBuilder } from './analysis-results.ts';
import { analysisNotice, analysisNoticeData } from './analysis.texts.ts';
import { type ClassifyAndShrink, factsOf, storageFolder } from './classify.ts';

/** A new analysis from a first photo: classified, stored, counted, notified and followed up. */
export function createNewAnalysis(
  deps: ModuleDeps,
  repo: ReturnType<typeof createAnalysisRepo>,
  { ownAnalysis }: AnalysisAccess,
  { resultOf }: ResultBuilder,
  classifyAndShrink: ClassifyAndShrink,
  outbreak: OutbreakService,
  followUps: FollowUpService,
  fields: FieldsService,
) {
  /**
   * Classifies a validated photo, stores photo and result, and notifies the farmer. With an
   * idempotency key that the caller already used (a concurrent retry that passed the route's
   * lookup), the stored files are removed and the first analysis is returned with `created` false.
   */
  return async function analyse(
    who: AccessClaims,
    image: UploadedImage,
    opts: AnalyseOptions = {},
  ): Promise<{ result: AnalysisResult; created: boolean }> {
    // A follow-up of someone else's diagnosis reads as a missing one, before any work (0044); one of
    // another field, or a crop that is not the field's, is refused (decisions 0059, 0078).
    const first = opts.followUpOf ? await ownAnalysis(who, opts.followUpOf) : undefined;
    const { field, crop } = await fields.forUpload(who.userId, {
      fieldId: opts.fieldId,
      crop: opts.crop,
      followUp: first && { fieldId: first.fieldId, crop: first.crop },
    });
    const decoder = opts.decodeAs === undefined ? who : { ...who, userId: opts.decodeAs };
    const { diagnosis, photo, print } = await classifyAndShrink(decoder, image, crop);
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
        rustSpots: notLeaf ? null : (diagnosis.rust_spots ?? null),
        leafPrint: print,
        modelVersion: diagnosis.model_version,
        crop,
        fieldId: field.id,
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
      return { result: await resultOf(first, opts.language ?? 'en'), created: false };
    }
    analysesByOutcome.inc({
      outcome: row.outcome === 'not_leaf' ? 'not_leaf' : row.unsure ? 'unsure' : row.rustClass!,
    });
    // The one notice of this analysis; more leaves rewrite it with the field's answer (field-photos.ts).
    await deps.notifications.notify(who.userId, 'image_analysis', analysisNotice(row), analysisNoticeData(row));
    // A confident rust diagnosis is a reported case in the farmer's district (docs/decisions/0031).
    await outbreak.record(row.id);
    // This photo answers (or cancels) the field's reminder; advice to treat opens the next (0044).
    if (opts.followUp !== false) await followUps.afterAnalysis(factsOf(row), opts.followUpOf);
    return { result: await resultOf(row, opts.language ?? 'en'), created: true };
  };
}
