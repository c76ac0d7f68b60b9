import type { AnalysisResult, ReviewVerdict } from '@kutu/contract';
import { type Message, message } from '../../i18n/i18n.ts';
import type { ReviewRow } from './review.repo.ts';

const verdictNames: Record<ReviewVerdict, string> = {
  common_rust: 'Common Rust',
  healthy: 'Healthy',
  other_disease: 'another disease',
  not_leaf: 'not a leaf',
  cannot_tell: 'cannot tell from this photo',
};

/**
 * Rust as the farmers of the crop call it, so a bean farmer does not read "common rust" (a maize
 * disease): common rust on maize, bean rust on beans.
 */
export function rustName(crop: string | null): Message {
  return message(
    crop === 'maize' || crop === 'beans' ? `notifications.rustNames.${crop}` : 'notifications.rustNames.any',
  );
}

/** A verdict in words, rust named for the crop of the photo. */
export const verdictText = (verdict: ReviewVerdict, crop: string | null): Message =>
  verdict === 'common_rust' ? rustName(crop) : message(`notifications.verdicts.${verdict}`);

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

const modelSaid = (a: AnalysisResult) =>
  a.outcome === 'not_leaf' || !a.rust_class
    ? 'no leaf found'
    : `${verdictNames[a.rust_class]} (${Math.round(a.confidence * 100)}%${a.unsure ? ', unsure' : ''})`;

const postCrop: Record<string, string> = { maize: 'MAIZE', beans: 'BEANS' };

/** The farmer's question and the expert's answer as a community post body. */
export function communityPostFrom(
  a: AnalysisResult,
  review: Pick<ReviewRow, 'question' | 'note'> & { verdict: ReviewVerdict },
  reviewerName: string | null,
) {
  const lines = [
    review.question ? `My question: ${review.question}` : null,
    `The Kutu model said: ${modelSaid(a)}.`,
    `Expert answer${reviewerName ? ` (${reviewerName})` : ''}: ${verdictNames[review.verdict]}.`,
    review.note ? `Expert note: ${review.note}` : null,
  ].filter(Boolean);
  return {
    title: `Expert review of my leaf photo: ${verdictNames[review.verdict]}`,
    content: lines.join('\n'),
    crop_type: (a.crop && postCrop[a.crop]) || 'MAIZE',
    disease_type: review.verdict === 'common_rust' ? 'common_rust' : 'none',
    urgency_level: review.verdict === 'common_rust' ? 'high' : 'low',
    rust_detection: a.id,
  };
}
