import type { ReviewVerdict } from '@kutu/contract';

export const verdictColor: Record<ReviewVerdict, string> = {
  common_rust: 'red',
  healthy: 'green',
  other_disease: 'blue',
  not_leaf: 'gray',
  cannot_tell: 'yellow',
};

export const verdictKey = (v: ReviewVerdict) => `review.verdict.${v}`;
