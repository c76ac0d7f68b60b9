import { useEffect } from 'react';
import type { AnalysisCrop, AnalysisResult, RustClass } from '@kutu/contract';
// The zod-free subpath: the upload screen imports this module, and the schemas are not needed to diagnose.
import { AdviceBook, feedbackFor, resourceTopicsFor } from '@kutu/contract/feedback';
import { secondPhotoAsk } from '@kutu/contract/field-photos';
import { useOfflineModel } from './model.ts';
import { enqueue } from './queue.ts';

/**
 * Diagnoses a photo on the phone and queues it for the server: the answer reads like a server result
 * (same rules, advice texts and resources) but has no id yet; the queued upload becomes the real one.
 */
export async function diagnoseOffline(photo: {
  blob: Blob;
  filename: string;
  crop: AnalysisCrop;
}): Promise<AnalysisResult> {
  const { diagnoseOnPhone } = await import('./engine.ts');
  const { diagnosis, info, severity, spots } = await diagnoseOnPhone(photo.blob, photo.crop);
  await enqueue({ ...photo, diagnosis });
  const notLeaf = diagnosis.outcome === 'not_leaf' || diagnosis.rust_class === null;
  const row = {
    outcome: notLeaf ? ('not_leaf' as const) : ('diagnosis' as const),
    rustClass: notLeaf ? null : (diagnosis.rust_class as RustClass),
    confidence: diagnosis.confidence,
    unsure: notLeaf ? false : diagnosis.unsure,
  };
  const seen = new Set<string>();
  return {
    id: 0,
    outcome: row.outcome,
    rust_class: row.rustClass,
    confidence: row.confidence,
    unsure: row.unsure,
    probabilities: diagnosis.probabilities,
    educational_resources: resourceTopicsFor(row)
      .flatMap((topic) => info.resources[topic] ?? [])
      .filter((r) => !seen.has(r.url) && seen.add(r.url)),
    // A model stored before advice was part of the download reads without steps until it is refreshed.
    feedback: feedbackFor({ ...row, crop: photo.crop }, new AdviceBook(info.advice ?? [])),
    model_version: info.version,
    created_at: new Date().toISOString(),
    // A local object URL: the photo, shown beside the answer until it is uploaded.
    image_url: URL.createObjectURL(photo.blob),
    crop: photo.crop,
    // The model's heatmap is for experts (decision 0054); the phone outlines the rust-coloured spots instead.
    heatmap_url: null,
    // No stored photo yet: the queued upload becomes the server's analysis, with its photo.
    photos: [],
    second_photo: secondPhotoAsk({ ...row, probabilities: diagnosis.probabilities, photo_count: 1 }),
    // Always an estimate here: whether experts agree with it often enough is known on the server only.
    severity: severity && { ...severity, estimate: true },
    rust_spots: spots,
  };
}

/** Loads the inference code ahead of need, so it is in memory when the signal drops. */
export function preloadEngine() {
  void import('./engine.ts');
}

/** Whether this phone can diagnose offline now; loads the inference code once a model is stored. */
export function useOfflineDiagnosis() {
  const model = useOfflineModel();
  useEffect(() => {
    if (model.stored) preloadEngine();
  }, [model.stored]);
  return { available: model.stored !== null };
}
