import type { AnalysisCrop, AnalysisResult, RustClass } from '@kutu/contract';
// The zod-free subpath: the upload screen imports this module, and the schemas are not needed to diagnose.
import { AdviceBook, feedbackFor, resourceTopicsFor } from '@kutu/contract/feedback';
import { secondPhotoAsk } from '@kutu/contract/field-photos';
import { enqueue } from './queue.ts';

/**
 * Loaded when a photo is diagnosed on the phone (use-offline-diagnosis.ts loads it ahead of need).
 *
 * Diagnoses the leaves of a field on the phone (one to three) and queues them for the server: the
 * answer reads like a server result (same rules, field combination, advice texts and resources) but has
 * no id yet; the queued uploads become the real one, the first leaf the analysis and the others its photos.
 */
export async function diagnoseOffline(field: {
  leaves: { blob: Blob; filename: string }[];
  crop: AnalysisCrop;
  /** The diagnosis the farmer said this field's photo follows up, sent with the first leaf. */
  followUpOf?: number;
  /** The farmer's field the leaves are of (docs/decisions/0078), sent with the first leaf. */
  farmField?: { id: number; name: string };
}): Promise<AnalysisResult> {
  const { diagnoseFieldOnPhone } = await import('./engine.ts');
  const { crop } = field;
  const { diagnosis, leaves, info, severity, unmeasured, spots, rustLeaves, joined, settings } =
    await diagnoseFieldOnPhone(
      field.leaves.map((l) => l.blob),
      crop,
    );
  const [first] = field.leaves;
  const followUp = field.followUpOf ? { followUpOf: field.followUpOf } : {};
  const queued = await enqueue({ ...first, crop, diagnosis: leaves[0], ...followUp, fieldId: field.farmField?.id });
  const notLeaf = diagnosis.outcome === 'not_leaf' || diagnosis.rust_class === null;
  // The field's other leaves, as the server would take them (`fieldLeaves`): none after a first photo with
  // no leaf, and none that shows no leaf itself.
  const others = joined.slice(1).map((i) => field.leaves[i]);
  for (const leaf of others) await enqueue({ ...leaf, crop, fieldOf: queued.key });
  const row = {
    outcome: notLeaf ? ('not_leaf' as const) : ('diagnosis' as const),
    rustClass: notLeaf ? null : (diagnosis.rust_class as RustClass),
    confidence: diagnosis.confidence,
    unsure: notLeaf ? false : diagnosis.unsure,
    // Rust on any leaf is said (as the server says it): on how many of the leaves sent.
    rustLeaves: notLeaf ? 0 : rustLeaves,
    leafCount: joined.length,
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
    feedback: feedbackFor({ ...row, crop }, new AdviceBook(info.advice ?? [])),
    model_version: info.version,
    created_at: new Date().toISOString(),
    // A local object URL: the first leaf's photo, shown beside the answer until it is uploaded.
    image_url: URL.createObjectURL(first.blob),
    crop,
    field: field.farmField ?? null,
    // The model's heatmap is for experts (decision 0054); the phone outlines the rust-coloured spots instead.
    heatmap_url: null,
    // No stored photo yet: the queued upload becomes the server's analysis, with its photos.
    photos: [],
    second_photo: secondPhotoAsk(
      {
        ...row,
        probabilities: diagnosis.probabilities,
        photo_count: joined.length,
        rust_class: row.rustClass,
        rust_leaves: row.rustLeaves,
      },
      settings.answer.closeMargin,
    ),
    rust_leaves: row.rustLeaves,
    leaf_count: row.leafCount,
    // Always an estimate here: whether experts agree with it often enough is known on the server only.
    severity: severity && { ...severity, estimate: true },
    severity_unmeasured: unmeasured,
    rust_spots: spots,
  };
}
