import { z } from 'zod';
import {
  askExpertBody,
  expertReview,
  fieldAccuracyReply,
  fieldFiguresReply,
  idParam,
  myReviewPage,
  pageQuery,
  reviewApi,
  reviewClaim,
  reviewCommunityPostReply,
  reviewDecisionBody,
  reviewQueuePage,
  reviewQueueQuery,
  reviewSummary,
} from '@kutu/contract';
import type { App } from '../../deps.ts';
import type { RouteContext } from '../../route-context.ts';
import type { ReviewService } from './review.service.ts';
import { caller } from '../../plugins/auth.ts';
import { errorReplies, guard } from '../../lib/route-schema.ts';

const errors = errorReplies(400, 401, 403, 404, 409, 429);
const tags = ['expert-review'];

export function reviewRoutes(app: App, { services: { review } }: RouteContext<{ review: ReviewService }>) {
  const expert = guard('expert');
  const farmer = guard('farmer');
  const signedIn = guard('farmer', 'expert');

  app.get(
    reviewApi.queue,
    {
      schema: {
        tags,
        description:
          'Analyses no expert has decided yet: those a farmer asked about first, then unsure ones, then by the smallest margin between the top two classes, then newest.',
        querystring: reviewQueueQuery,
        response: { 200: reviewQueuePage, ...errors },
      },
      config: expert,
    },
    async (req) => review.queue(req.query, await req.language()),
  );

  app.get(
    reviewApi.mine,
    {
      schema: {
        tags,
        description: "The caller's analyses they asked about or that an expert reviewed, latest first.",
        querystring: pageQuery,
        response: { 200: myReviewPage, ...errors },
      },
      config: farmer,
    },
    async (req) => review.mine(caller(req), req.query),
  );

  app.get(
    reviewApi.decided,
    {
      schema: {
        tags,
        description: "The caller's own verdicts, latest first; PUT one again to revise it.",
        querystring: pageQuery,
        response: { 200: myReviewPage, ...errors },
      },
      config: expert,
    },
    async (req) => review.decidedBy(caller(req), req.query),
  );

  app.get(
    reviewApi.summary,
    { schema: { tags, response: { 200: reviewSummary, ...errors } }, config: signedIn },
    async (req) => review.summary(caller(req)),
  );

  app.get(
    reviewApi.fieldAccuracy,
    {
      schema: {
        tags,
        description:
          'Per model version: analyses, reviewed, agreement with confident answers, unsure rate, confusion matrix (model answer × expert verdict), and the same per crop.',
        response: { 200: fieldAccuracyReply, ...errors },
      },
      config: expert,
    },
    async () => review.fieldAccuracy(),
  );

  app.get(
    reviewApi.fieldFigures,
    {
      schema: {
        tags,
        description:
          'Per crop, by month of the analysis (East Africa Time) and over all time: of the photos an expert gave a crop class, the shares Kutu answered right, confidently wrong and unsure, each with its 95 % Wilson interval.',
        response: { 200: fieldFiguresReply, ...errors },
      },
      config: guard('expert', 'admin'),
    },
    async () => review.fieldFigures(),
  );

  app.get(
    reviewApi.review,
    {
      schema: {
        tags,
        description: 'The review of one analysis, for its farmer and for experts.',
        params: idParam,
        response: { 200: expertReview, ...errors },
      },
      config: signedIn,
    },
    async (req) => review.get(caller(req), req.params.id),
  );

  app.put(
    reviewApi.review,
    {
      schema: {
        tags,
        description:
          'Decides the verdict (first answer wins: 409 to a second expert or while another expert holds a claim); the same expert may revise it. A crop-class verdict makes or relabels a training sample; not_leaf and cannot_tell remove it.',
        params: idParam,
        body: reviewDecisionBody,
        response: { 200: expertReview, ...errors },
      },
      config: expert,
    },
    async (req) => review.decide(caller(req), req.params.id, req.body),
  );

  app.post(
    reviewApi.claim,
    {
      schema: {
        tags,
        description: 'Claims the item for a few minutes so no other expert reviews it at the same time (409 if taken).',
        params: idParam,
        response: { 200: reviewClaim, ...errors },
      },
      config: expert,
    },
    async (req) => review.claim(caller(req), req.params.id),
  );

  app.delete(
    reviewApi.claim,
    {
      schema: { tags, params: idParam, response: { 204: z.null(), ...errors } },
      config: expert,
    },
    async (req, reply) => {
      await review.release(caller(req), req.params.id);
      return reply.status(204).send(null);
    },
  );

  app.post(
    reviewApi.ask,
    {
      schema: {
        tags,
        description: "Asks an expert to look at the caller's analysis; it goes to the top of the review queue.",
        params: idParam,
        body: askExpertBody,
        response: { 200: expertReview, ...errors },
      },
      config: farmer,
    },
    async (req) => review.ask(caller(req), req.params.id, req.body),
  );

  app.post(
    reviewApi.leafCheck,
    {
      schema: {
        tags,
        description:
          'The caller says their "no leaf" photo shows a leaf: it goes to the review queue with that reason. Asking again changes nothing; 409 when Kutu found a leaf.',
        params: idParam,
        response: { 200: expertReview, ...errors },
      },
      config: farmer,
    },
    async (req) => review.leafCheck(caller(req), req.params.id),
  );

  app.post(
    reviewApi.communityPost,
    {
      schema: {
        tags,
        description: 'Turns the answered exchange into a community post (awaiting moderation like every post).',
        params: idParam,
        response: { 201: reviewCommunityPostReply, ...errors },
      },
      config: farmer,
    },
    async (req, reply) =>
      reply.status(201).send(await review.toCommunityPost(caller(req), req.params.id, await req.language())),
  );
}
