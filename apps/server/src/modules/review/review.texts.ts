import { type AnalysisResult, confidencePercent, type Language, type ReviewVerdict } from '@kutu/contract';
import { type Message, message, render } from '../../i18n/i18n.ts';
import { verdictText } from '../../i18n/rust-words.ts';
import type { ReviewRow } from './review.repo.ts';

/**
 * The farmer's notification when an expert decides (or changes) the verdict on their photo: the
 * verdict (named for the crop, with its severity: verdict-message.ts) and the expert's note when there is one.
 */
export function reviewNotice(verdict: Message, revised: boolean, note: string | null = null): Message {
  const values = { verdict };
  if (note)
    return message(revised ? 'notifications.reviewUpdatedNote' : 'notifications.reviewDoneNote', { ...values, note });
  return message(revised ? 'notifications.reviewUpdated' : 'notifications.reviewDone', values);
}

const modelSaid = (a: AnalysisResult): Message =>
  a.outcome === 'not_leaf' || !a.rust_class
    ? message('review.communityPost.noLeaf')
    : message(a.unsure ? 'review.communityPost.guessUnsure' : 'review.communityPost.guess', {
        label: verdictText(a.rust_class, a.crop),
        percent: confidencePercent(a.confidence),
      });

const postCrop: Record<string, string> = { maize: 'MAIZE', beans: 'BEANS' };

/**
 * The farmer's question and the expert's answer as a community post body, in the farmer's language (the
 * post is theirs, and the community reads it as they wrote it).
 */
export function communityPostFrom(
  a: AnalysisResult,
  review: Pick<ReviewRow, 'question' | 'note'> & { verdict: ReviewVerdict },
  reviewerName: string | null,
  language: Language,
) {
  const verdict = verdictText(review.verdict, a.crop);
  const lines = [
    review.question ? message('review.communityPost.question', { question: review.question }) : null,
    message('review.communityPost.modelSaid', { said: modelSaid(a) }),
    reviewerName
      ? message('review.communityPost.answerBy', { name: reviewerName, verdict })
      : message('review.communityPost.answer', { verdict }),
    review.note ? message('review.communityPost.note', { note: review.note }) : null,
  ].filter((line): line is Message => line !== null);
  return {
    title: render(language, message('review.communityPost.title', { verdict })),
    content: lines.map((line) => render(language, line)).join('\n'),
    crop_type: (a.crop && postCrop[a.crop]) || 'MAIZE',
    disease_type: review.verdict === 'common_rust' ? 'common_rust' : 'none',
    urgency_level: review.verdict === 'common_rust' ? 'high' : 'low',
    rust_detection: a.id,
  };
}
