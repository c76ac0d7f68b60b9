import path from 'node:path';
import {
  type AnalysisResult,
  type AskExpertBody,
  CLAIM_MINUTES,
  type ExpertReview,
  type Language,
  type MyReviewPage,
  type PageQuery,
  type ReviewClaim,
  type ReviewQueuePage,
  type ReviewQueueQuery,
  type ReviewVerdict,
  type SeverityBandName,
  type TrainingLabel,
  trainingVerdicts,
} from '@kutu/contract';
import type { ModuleDeps } from '../../deps.ts';
import { AppError, conflict, notFound } from '../../lib/errors.ts';
import { message, render, restoreMessage, storeMessage } from '../../i18n/i18n.ts';
import type { AccessClaims } from '../../lib/tokens.ts';
import { pageWindow, toPage } from '../../lib/pagination.ts';
import type { AnalysisService } from '../analysis/analysis.service.ts';
import type { CommunityService } from '../community/community.service.ts';
import type { SamplesService } from '../training/samples.service.ts';
import type { OutbreakService } from '../outbreak/outbreak.service.ts';
import { createReviewRepo, type QueueFilters, type ReviewRow, type ReviewWithNames } from './review.repo.ts';
import { communityPostFrom } from './review.texts.ts';
import { createAnswerFarmer, createVerdictWriter, type Decision } from './answer-farmer.ts';
import { agreesWith, createReviewFigures, modelAnswerOf } from './review-figures.ts';
import type { FollowUpService } from '../followup/followup.service.ts';
import type { ExtensionService } from '../extension/extension.service.ts';

// The clinic reads the model's answer in a verdict's terms through this service.
export { modelAnswerOf } from './review-figures.ts';
/** An analysis's review as other modules' queries join it (the basic phone, the dashboard). */
export { reviewFacts } from './facts.repo.ts';
/** An expert's decision as the analysis module shows it (its `DecisionFacts`, through services.ts). */
export { decisionFacts } from './facts.repo.ts';
/** An analysis's verdict as the outbreak watch counts it (its `OutbreakSources`, through services.ts). */
export { verdictCaseSql } from './facts.repo.ts';
/** A try-out confirmation of a demo photo (`npm run outbreak:demo`, the only caller). */
export { addDemoVerdict } from './demo-verdicts.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

const isTrainingVerdict = (v: ReviewVerdict): v is TrainingLabel => (trainingVerdicts as readonly string[]).includes(v);

const trainingCrop = { maize: 'MAIZE', beans: 'BEANS' } as Record<string, string>;

/** The services a review uses: the analysis, training samples (a verdict labels one), community, outbreak counts. */
interface ReviewUses {
  analysis: AnalysisService;
  samples: Pick<SamplesService, 'fromAnalysis' | 'relabel' | 'remove' | 'sampleOfAnalysis'>;
  community: CommunityService;
  outbreak: OutbreakService;
  followUps: Pick<FollowUpService, 'expertAnswered'>;
  /** Extension officers' calls and visits to the farmer, shown to experts on the case. */
  extension: Pick<ExtensionService, 'notesOf'>;
}

/**
 * The review module's one service, which routes and other modules use. Its jobs live beside it: telling
 * the farmer of a verdict (answer-farmer.ts), the summaries and field figures (review-figures.ts), the
 * queries (review.repo.ts and its parts); here are the queue, one item's claim and decision, and questions.
 */
export function createReviewService(
  deps: ModuleDeps,
  { analysis, samples: training, community, outbreak, followUps, extension }: ReviewUses,
) {
  const repo = createReviewRepo(deps.db);
  const { clock } = deps;
  const answerFarmer = createAnswerFarmer(analysis, followUps);
  const writeVerdict = createVerdictWriter(deps);
  const figures = createReviewFigures(deps, repo, analysis);

  function reviewOut(row: ReviewWithNames | undefined, a: AnalysisResult, who: AccessClaims): ExpertReview {
    const decided = Boolean(row?.reviewedAt);
    return {
      analysis_id: a.id,
      question: row?.question ?? null,
      asked_at: row?.askedAt?.toISOString() ?? null,
      status: decided ? 'reviewed' : 'waiting',
      verdict: decided ? (row?.verdict ?? null) : null,
      note: decided ? (row?.note ?? null) : null,
      severity: decided ? (row?.severity ?? null) : null,
      reviewer:
        decided && row?.reviewerId && row.reviewerName ? { id: row.reviewerId, username: row.reviewerName } : null,
      reviewed_at: row?.reviewedAt?.toISOString() ?? null,
      revised_at: row?.revisedAt?.toISOString() ?? null,
      agrees: decided ? agreesWith(modelAnswerOf(a), row?.verdict ?? null) : null,
      sample_id: who.role === 'expert' ? (row?.sampleId ?? null) : null,
      community_post_id: row?.communityPostId ?? null,
    };
  }

  /** The analysis, if the caller may see its review: its owner, or any expert. Others get 404. */
  async function visible(who: AccessClaims, id: number): Promise<AnalysisResult & { userId: number }> {
    const found = (await analysis.resultsByIds([id])).get(id);
    if (!found || (who.role !== 'expert' && found.userId !== who.userId)) throw notFound('errors.analysis.notFound');
    return found;
  }

  async function refusal(id: number, expertId: number): Promise<AppError> {
    const row = await repo.find(id);
    if (row?.reviewedAt) {
      return conflict(
        message('errors.review.alreadyReviewedBy', {
          name: row.reviewerName ?? message('errors.review.anotherExpert'),
        }),
      );
    }
    if (row?.claimedBy && row.claimedBy !== expertId && row.claimedUntil) {
      const name = (await repo.claimerName(row.claimedBy)) ?? message('errors.review.anotherExpertCapital');
      const until = row.claimedUntil.toISOString().slice(11, 16);
      return conflict(message('errors.review.claimedBy', { name, until }));
    }
    return conflict('errors.review.cannotReview');
  }

  /** Makes the training data follow the verdict: a sample for a crop class, none otherwise. */
  async function syncSample(expertId: number, a: AnalysisResult, previous: number | null, verdict: ReviewVerdict) {
    if (!isTrainingVerdict(verdict)) {
      if (previous) await training.remove(previous).catch(ignoreMissing);
      await repo.setSample(a.id, null);
      return;
    }
    let sampleId = previous ?? (await training.sampleOfAnalysis(a.id));
    if (sampleId) {
      const relabelled = await training.relabel(sampleId, verdict).catch(ignoreMissing);
      if (!relabelled) sampleId = null;
    }
    if (!sampleId) {
      const created = await training.fromAnalysis(
        expertId,
        a.id,
        verdict,
        a.crop ? (trainingCrop[a.crop] ?? null) : null,
      );
      sampleId = created.samples[0].id;
    }
    await repo.setSample(a.id, sampleId);
  }

  async function reviewPage(
    who: AccessClaims,
    query: PageQuery,
    listed: Promise<{ ids: number[]; total: number }>,
  ): Promise<MyReviewPage> {
    const { ids, total } = await listed;
    const results = await analysis.resultsByIds(ids);
    const items = [];
    for (const id of ids) {
      const { userId: _owner, ...a } = results.get(id)!;
      items.push({ analysis: a, review: reviewOut(await repo.find(id), a, who) });
    }
    return toPage(items, total, query);
  }

  return {
    /** One page of the queue; Kutu's own reasons (a follow-up that looked worse) in the reader's `language`. */
    async queue(query: ReviewQueueQuery & PageQuery, language: Language = 'en'): Promise<ReviewQueuePage> {
      const filters: QueueFilters = {
        crop: query.crop,
        outcome: query.outcome,
        modelVersion: query.model_version,
        district: query.district,
        from: query.from ? new Date(`${query.from}T00:00:00Z`) : undefined,
        until: query.to ? new Date(new Date(`${query.to}T00:00:00Z`).getTime() + DAY_MS) : undefined,
      };
      const { rows, total } = await repo.queuePage(filters, pageWindow(query));
      const results = await analysis.resultsByIds(rows.map((r) => r.analysisId));
      const now = clock.now();
      return toPage(
        rows.map((r) => {
          const { userId: _owner, ...result } = results.get(r.analysisId)!;
          const claimLive = r.claimedBy !== null && r.claimedUntil !== null && r.claimedUntil > now;
          return {
            analysis: result,
            farmer: { id: r.farmerId, username: r.farmerName ?? '' },
            question: r.question,
            reason: r.reason ? render(language, restoreMessage(r.reason)) : null,
            asked_at: r.askedAt?.toISOString() ?? null,
            margin: r.margin,
            claimed_by: claimLive ? { id: r.claimedBy!, username: r.claimedByName ?? '' } : null,
            claimed_until: claimLive ? r.claimedUntil!.toISOString() : null,
          };
        }),
        total,
        query,
      );
    },

    async get(who: AccessClaims, id: number): Promise<ExpertReview> {
      const a = await visible(who, id);
      const out = reviewOut(await repo.find(id), a, who);
      // The farmer's case as experts see it: what extension officers did about this farmer.
      return who.role === 'expert' ? { ...out, officer_notes: await extension.notesOf(a.userId) } : out;
    },

    /** Keeps other experts off the item for CLAIM_MINUTES; 409 when someone else holds it or decided. */
    async claim(who: AccessClaims, id: number): Promise<ReviewClaim> {
      await visible(who, id);
      const now = clock.now();
      const until = new Date(now.getTime() + CLAIM_MINUTES * 60_000);
      const row = await repo.claim(id, who.userId, now, until);
      if (!row) throw await refusal(id, who.userId);
      return {
        analysis_id: id,
        claimed_by: { id: who.userId, username: (await repo.claimerName(who.userId)) ?? '' },
        claimed_until: until.toISOString(),
      };
    },

    async release(who: AccessClaims, id: number): Promise<void> {
      await visible(who, id);
      if (!(await repo.release(id, who.userId))) throw notFound('errors.review.noClaim');
    },

    /**
     * The one decision on an item (first answer wins; a second expert gets 409), or its revision by
     * the same expert. The training sample follows the verdict and the farmer is told.
     */
    async decide(
      who: AccessClaims,
      id: number,
      body: { verdict: ReviewVerdict; note?: string; severity?: SeverityBandName },
      /** False when the caller tells the farmer itself (a plant clinic's one result SMS, 0053). */
      tell = true,
    ) {
      const a = await visible(who, id);
      // A severity goes with a rust verdict only (the contract refuses it otherwise; a revision to another verdict drops it).
      const severity = body.verdict === 'common_rust' ? (body.severity ?? null) : null;
      const decision: Decision = { verdict: body.verdict, note: body.note?.trim() || null, severity };
      const now = clock.now();
      const before = await repo.find(id);
      const revised = Boolean(before?.reviewedAt);
      if (revised && before?.reviewerId !== who.userId) throw await refusal(id, who.userId);
      // The verdict and the farmer's messages in one transaction (docs/decisions/0050).
      const row = await writeVerdict(who.userId, a, decision, revised, now, tell);
      if (!row) throw await refusal(id, who.userId);
      await syncSample(who.userId, a, before?.sampleId ?? null, decision.verdict);
      // A rating (or a revision dropping one) can move the model–expert severity agreement.
      if (severity || before?.severity) await deps.lists.changed('severity-trust');
      // The verdict confirms or removes a rust case; the outbreak counts and alerts follow (docs/decisions/0031).
      await outbreak.record(id);
      if (tell) await answerFarmer.answer(a, decision, now);
      return reviewOut(await repo.find(id), a, who);
    },

    async ask(who: AccessClaims, id: number, body: AskExpertBody): Promise<ExpertReview> {
      const a = await visible(who, id);
      if (a.userId !== who.userId) throw notFound('errors.analysis.notFound');
      const row = await repo.ask(id, body.question.trim(), clock.now());
      if (!row) throw conflict('errors.review.alreadyAnswered');
      return reviewOut(await repo.find(id), a, who);
    },

    /**
     * A "no leaf" answer on a photo its owner says shows a leaf goes to the expert queue with Kutu's
     * reason (docs/decisions/0049). Asking again changes nothing; another farmer's analysis reads as missing.
     */
    async leafCheck(who: AccessClaims, id: number): Promise<ExpertReview> {
      const a = await visible(who, id);
      if (a.userId !== who.userId) throw notFound('errors.analysis.notFound');
      if (a.outcome !== 'not_leaf') throw conflict('errors.review.leafFound');
      await repo.escalate(id, storeMessage(message('review.reasons.farmerSaysLeaf')), clock.now());
      return reviewOut(await repo.find(id), a, who);
    },

    /** A farmer's questions and the verdicts on their analyses. */
    mine: (who: AccessClaims, query: PageQuery) =>
      reviewPage(who, query, repo.listForFarmer(who.userId, pageWindow(query))),

    /** An expert's own verdicts, to look back at or revise. */
    decidedBy: (who: AccessClaims, query: PageQuery) =>
      reviewPage(who, query, repo.listDecidedBy(who.userId, pageWindow(query))),

    /** The answered exchange as a community post of the farmer (awaiting moderation, as every post). */
    async toCommunityPost(who: AccessClaims, id: number, language: Language): Promise<{ post_id: number }> {
      const a = await visible(who, id);
      if (a.userId !== who.userId) throw notFound('errors.analysis.notFound');
      const review = await repo.find(id);
      if (!review?.reviewedAt || !review.verdict) throw conflict('errors.review.notAnswered');
      if (review.communityPostId) throw conflict('errors.review.alreadyPosted');
      const photo = await analysis.photo(who, id);
      const post = await community.createPost(
        who,
        communityPostFrom(a, review as ReviewRow & { verdict: ReviewVerdict }, review.reviewerName, language),
        {
          buffer: Buffer.concat((await photo.data.toArray()) as Buffer[]),
          filename: path.basename(`analysis-${id}`),
          format: photo.contentType === 'image/png' ? 'png' : 'jpeg',
          width: 0,
          height: 0,
        },
      );
      if (!(await repo.setCommunityPost(id, post.id))) throw conflict('errors.review.alreadyPosted');
      return { post_id: post.id };
    },

    ...figures,
  };
}
export type ReviewService = ReturnType<typeof createReviewService>;

function ignoreMissing(err: unknown): null {
  if (err instanceof AppError && err.status === 404) return null;
  throw err;
}
