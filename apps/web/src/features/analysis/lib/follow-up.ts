import type { AnalysisResult, FollowUpOutcome } from '@kutu/contract';

/** How a follow-up result is shown: the outcome's colour and the two rust shares it compares. */
export interface FollowUpSummary {
  outcome: FollowUpOutcome;
  color: 'green' | 'teal' | 'red' | 'yellow';
  /** The first diagnosis's rust share and this photo's (0..1). */
  before: number;
  now: number;
  sentToExpert: boolean;
  firstId: number;
}

const colors: Record<FollowUpOutcome, FollowUpSummary['color']> = {
  better: 'green',
  less: 'teal',
  worse: 'red',
  unclear: 'yellow',
};

/** What a follow-up photo's comparison (the server's `follow_up`) shows; null for any other result. */
export function followUpSummary(result: Pick<AnalysisResult, 'follow_up' | 'probabilities'>): FollowUpSummary | null {
  const f = result.follow_up;
  if (!f) return null;
  return {
    outcome: f.outcome,
    color: colors[f.outcome],
    // The first diagnosis was confident rust (advice to treat): its share is its rust share.
    before: f.of_rust_class === 'common_rust' ? f.of_confidence : 0,
    now: result.probabilities.common_rust ?? 0,
    sentToExpert: f.sent_to_expert,
    firstId: f.of,
  };
}
