import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  AskExpertBody,
  ExpertReview,
  FieldAccuracyReply,
  FieldFiguresReply,
  MyReviewPage,
  ReviewClaim,
  ReviewDecisionBody,
  ReviewQueuePage,
  ReviewQueueQuery,
  ReviewSummary,
} from '@kutu/contract';
import { reviewApi } from '@kutu/contract/paths';
import { http } from '../lib/api.ts';

/** Every review query starts with this key; live notifications refresh them all. */
export const reviewKey = ['expert-reviews'] as const;

/** Queue filters and page, as the web app sends them. */
export type QueueParams = Omit<ReviewQueueQuery, 'page' | 'page_size'> & { page: number; page_size: number };

export const reviewQueueQuery = (q: QueueParams) =>
  queryOptions({
    queryKey: [...reviewKey, 'queue', q],
    queryFn: ({ signal }) => http.get<ReviewQueuePage>(reviewApi.queue, q, signal),
    placeholderData: keepPreviousData,
  });

export const reviewQuery = (analysisId: number) =>
  queryOptions({
    queryKey: [...reviewKey, 'one', analysisId],
    queryFn: ({ signal }) => http.get<ExpertReview>(reviewApi.reviewPath(analysisId), undefined, signal),
  });

export const useReviewQueue = (q: QueueParams) => useQuery(reviewQueueQuery(q));
export const useReview = (analysisId: number) => useQuery(reviewQuery(analysisId));
export const useMyVerdicts = (page: number, pageSize: number) =>
  useQuery({
    queryKey: [...reviewKey, 'decided', page, pageSize],
    queryFn: ({ signal }) => http.get<MyReviewPage>(reviewApi.decided, { page, page_size: pageSize }, signal),
    placeholderData: keepPreviousData,
  });
export const useReviewSummary = () =>
  useQuery({
    queryKey: [...reviewKey, 'summary'],
    queryFn: ({ signal }) => http.get<ReviewSummary>(reviewApi.summary, undefined, signal),
  });
/** Kutu's live field figures by crop and month, from the experts' verdicts (experts and administrators). */
export const useFieldFigures = () =>
  useQuery({
    queryKey: [...reviewKey, 'field-figures'],
    queryFn: ({ signal }) => http.get<FieldFiguresReply>(reviewApi.fieldFigures, undefined, signal),
  });

export const useFieldAccuracy = () =>
  useQuery({
    queryKey: [...reviewKey, 'field-accuracy'],
    queryFn: ({ signal }) => http.get<FieldAccuracyReply>(reviewApi.fieldAccuracy, undefined, signal),
  });

function useReviewMutation<TArgs, TResult>(fn: (args: TArgs) => Promise<TResult>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSettled: () => {
      void client.invalidateQueries({ queryKey: reviewKey });
      // A verdict adds, relabels or removes a training sample.
      void client.invalidateQueries({ queryKey: ['training'] });
    },
  });
}

export const useClaim = () =>
  useReviewMutation((analysisId: number) => http.post<ReviewClaim>(reviewApi.claimPath(analysisId)));
export const useReleaseClaim = () =>
  useReviewMutation((analysisId: number) => http.delete<void>(reviewApi.claimPath(analysisId)));
export const useDecide = () =>
  useReviewMutation((v: { analysisId: number; body: ReviewDecisionBody }) =>
    http.put<ExpertReview>(reviewApi.reviewPath(v.analysisId), v.body),
  );
export const useAskExpert = () =>
  useReviewMutation((v: { analysisId: number; body: AskExpertBody }) =>
    http.post<ExpertReview>(reviewApi.askPath(v.analysisId), v.body),
  );
export const useShareToCommunity = () =>
  useReviewMutation((analysisId: number) => http.post<{ post_id: number }>(reviewApi.communityPostPath(analysisId)));
/** A "no leaf" answer on a photo the farmer says is a leaf: it goes to the experts (asking twice is fine). */
export const useLeafCheck = () =>
  useReviewMutation((analysisId: number) => http.post<ExpertReview>(reviewApi.leafCheckPath(analysisId)));
