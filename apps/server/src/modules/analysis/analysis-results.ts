import {
  adviceTopicFor,
  analysisApi,
  type AdviceBook,
  type AnalysisPhoto,
  type AnalysisResult,
  type ContentLanguage,
  feedbackFor,
  resourceTopicsFor,
  type RustClass,
  secondPhotoAsk,
  type SeverityAgreement,
  severityIsEstimate,
  WALK_RECENT_DAYS,
} from '@kutu/contract';
import { type AnswerSettings, cardSettings, SEVERITY_BANDS } from '@kutu/vision';
import type { FollowUpService, FollowUpView } from '../followup/followup.service.ts';
import type { ModuleDeps } from '../../deps.ts';
import type { AnalysisRow, createAnalysisRepo, createResourcesRepo, PhotoRow, ResourceRow } from './analysis.repo.ts';
import type { AdviceService } from './advice.service.ts';
import { type ExpertDecision, expertAnswerOf } from './expert-answer.ts';
import { type CropResource, resourcesFor } from './result-resources.ts';
import { severityOf, spotsOf, unmeasuredOf } from './shown-severity.ts';

function toResource(row: ResourceRow): CropResource {
  const resource = { title: row.title, url: row.url, description: row.description, link_language: row.linkLanguage };
  return { crop: row.crop, resource };
}

/**
 * Leaves that showed rust on their own: the field answer's count; for one photo, its own answer (a sure rust
 * answer or not); null for field answers from before it was kept.
 */
function rustLeavesOf(row: AnalysisRow): number | null {
  if (row.photoCount > 1) return row.rustLeaves;
  return row.outcome === 'diagnosis' && row.rustClass === 'common_rust' && !row.unsure ? 1 : 0;
}

const DAY_MS = 24 * 60 * 60 * 1000;
type FieldOf = { id: number; name: string; lastWalkAt: Date | null };

/**
 * A rust answer (the expert's, else the model's) asks for a walk of its field unless the field was walked in
 * the WALK_RECENT_DAYS before the photo or since: how much of the field has rust is a walk's count, never one
 * leaf's share (docs/decisions/0078).
 */
function walkAsked(row: AnalysisRow, rustLeaves: number | null, decision?: ExpertDecision, field?: FieldOf): boolean {
  if (!field) return false;
  const rustClass = (row.rustClass as RustClass | null) ?? null;
  const rust = decision
    ? decision.verdict === 'common_rust'
    : adviceTopicFor({ ...row, rustClass, rustLeaves, leafCount: row.photoCount }) === 'common_rust';
  if (!rust) return false;
  return !(field.lastWalkAt && field.lastWalkAt.getTime() >= row.createdAt.getTime() - WALK_RECENT_DAYS * DAY_MS);
}

type Context = {
  byTopic: Map<string, CropResource[]>;
  book: AdviceBook;
  severityEstimate: boolean;
  /** The served card's answer settings (close margin, severity cuts), read once per batch of results. */
  answer: AnswerSettings;
};

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

/**
 * An analysis row as the result the farmer reads: with its resources and advice in their language, its
 * photos, follow-up and expert's answer, and severity worded as an estimate while experts' ratings say so.
 */
export function createResultBuilder(
  deps: ModuleDeps,
  repo: ReturnType<typeof createAnalysisRepo>,
  resources: ReturnType<typeof createResourcesRepo>,
  advice: AdviceService,
  followUps: FollowUpService,
) {
  /** The served model card's settings (`cardSettings`): the answer is made and shown by them. */
  const served = () => cardSettings(deps.classifier.current().card);

  /**
   * What results are shown with, in the reader's language (English where not translated): resources
   * by topic and the advice book (two small tables), and the served card's answer settings.
   */
  async function resultContext(language: ContentLanguage): Promise<Context> {
    const [byTopic, book, estimate] = await Promise.all([
      resourcesByTopic(language),
      advice.book(language),
      severityEstimate(),
    ]);
    return { byTopic, book, severityEstimate: estimate, answer: served().answer };
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
    // Banded at the served card's cuts, as the results show them.
    for (const { model, expert, n } of await repo.severityPairs(served().answer.severityCuts)) {
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

  async function resourcesByTopic(language: ContentLanguage): Promise<Map<string, CropResource[]>> {
    const byTopic = new Map<string, CropResource[]>();
    for (const row of await resources.listActive(language)) {
      const list = byTopic.get(row.rustClass) ?? [];
      list.push(toResource(row));
      byTopic.set(row.rustClass, list);
    }
    return byTopic;
  }

  /** The photo rows of the analyses that have more than one (one query, none when no analysis has). */
  async function photoRows(rows: AnalysisRow[]): Promise<Map<number, PhotoRow[]>> {
    return repo.photosOf(rows.filter((r) => r.photoCount > 1).map((r) => r.id));
  }

  /** Follow-up views, expert decisions and fields of these analyses, by id (three queries). */
  async function aboutAnalyses(ids: number[]) {
    const [views, decisions, fields] = await Promise.all([
      followUps.views(ids),
      repo.decisionsFor(ids),
      repo.fieldsOf(ids),
    ]);
    return (id: number) => ({ followUp: views.get(id), decision: decisions.get(id), field: fields.get(id) });
  }

  function toResult(
    row: AnalysisRow,
    context: Context,
    photos?: PhotoRow[],
    { followUp, decision, field }: { followUp?: FollowUpView; decision?: ExpertDecision; field?: FieldOf } = {},
  ): AnalysisResult {
    const { byTopic, book, severityEstimate, answer } = context;
    const rustClass = (row.rustClass as RustClass | null) ?? null;
    const rustLeaves = rustLeavesOf(row);
    const seen = { rustLeaves, leafCount: row.photoCount };
    return {
      ...followUp,
      id: row.id,
      outcome: row.outcome,
      rust_class: rustClass,
      confidence: row.confidence,
      unsure: row.unsure,
      probabilities: row.probabilities,
      educational_resources: resourcesFor(resourceTopicsFor({ ...row, rustClass, ...seen }), row.crop, byTopic),
      feedback: feedbackFor(
        { outcome: row.outcome, rustClass, confidence: row.confidence, unsure: row.unsure, crop: row.crop, ...seen },
        book,
      ),
      model_version: row.modelVersion,
      created_at: row.createdAt.toISOString(),
      image_url: analysisApi.imagePath(row.id),
      crop: row.crop,
      field: field ? { id: field.id, name: field.name } : null,
      walk_asked: walkAsked(row, rustLeaves, decision, field),
      heatmap_url: row.heatmapPath ? analysisApi.heatmapPath(row.id) : null,
      photos: photosOf(row, photos),
      second_photo: secondPhotoAsk(
        {
          outcome: row.outcome,
          unsure: row.unsure,
          probabilities: row.probabilities,
          photo_count: row.photoCount,
          rust_class: rustClass,
          rust_leaves: rustLeaves,
        },
        answer.closeMargin,
      ),
      rust_leaves: rustLeaves,
      leaf_count: row.photoCount,
      severity: severityOf(row, severityEstimate, answer.severityCuts),
      severity_unmeasured: unmeasuredOf(row),
      // The expert's answer, which the result leads with (docs/decisions/0049).
      expert_verdict: decision?.verdict ?? null,
      expert_answer: decision ? expertAnswerOf(decision, { crop: row.crop, rustClass }, context) : null,
      rust_spots: spotsOf(row, answer.severityCuts),
    };
  }

  /** One analysis as its result, with its photos and follow-up. */
  async function resultOf(row: AnalysisRow, language: ContentLanguage): Promise<AnalysisResult> {
    const [context, photos, about] = await Promise.all([
      resultContext(language),
      photoRows([row]),
      aboutAnalyses([row.id]),
    ]);
    return toResult(row, context, photos.get(row.id), about(row.id));
  }

  return { resultContext, severityEstimate, severityAgreement, photoRows, aboutAnalyses, toResult, resultOf };
}
export type ResultBuilder = ReturnType<typeof createResultBuilder>;
