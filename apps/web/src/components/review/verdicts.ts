import { rustNameKey } from '../../lib/diagnosis-labels.ts';
import type { ReviewVerdict } from '@kutu/contract';

export const verdictColor: Record<ReviewVerdict, string> = {
  common_rust: 'red',
  healthy: 'green',
  other_disease: 'blue',
  not_leaf: 'gray',
  cannot_tell: 'yellow',
};

export const verdictKey = (v: ReviewVerdict) => `review.verdict.${v}`;
/** A verdict as the farmers of the photo's crop say it: rust on beans is bean rust, not common rust. */
export const verdictKeyFor = (v: ReviewVerdict, crop: string | null | undefined) =>
  v === 'common_rust' ? rustNameKey(crop) : verdictKey(v);
