import type { AnalysisResult, FollowUpOutcome } from '@kutu/contract';

/** How a follow-up result is shown: the outcome's colour and the two figures it compares. */
export interface FollowUpSummary {
  outcome: FollowUpOutcome;
  color: 'green' | 'teal' | 'red' | 'yellow';
  /**
   * What `before` and `now` are: the rust share of the leaf where both results show one (what the server
   * compared, decision 0044; the server sends none for a first diagnosis that showed none), else Kutu's
   * confidence in rust as each result says it.
   */
  measure: 'share' | 'confidence';
  /** The first diagnosis's figure and this photo's (0..1). */
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
export function followUpSummary(
  result: Pick<AnalysisResult, 'follow_up' | 'probabilities' | 'severity' | 'rust_class' | 'confidence'>,
): FollowUpSummary | null {
  const f = result.follow_up;
  if (!f) return null;
  const shares = f.of_severity != null && (result.severity || f.outcome === 'better');
  return {
    outcome: f.outcome,
    color: colors[f.outcome],
    measure: shares ? 'share' : 'confidence',
    // The first diagnosis was confident rust (advice to treat): its confidence is its rust confidence.
    before: shares ? (f.of_severity ?? 0) : f.of_rust_class === 'common_rust' ? f.of_confidence : 0,
    now: shares
      ? (result.severity?.share ?? 0)
      : result.rust_class === 'common_rust'
        ? result.confidence
        : (result.probabilities.common_rust ?? 0),
    sentToExpert: f.sent_to_expert,
    firstId: f.of,
  };
}

/**
 * The text key of a comparison. On shares, "worse" (as strong or stronger, within the server's margin)
 * reads "spreading" only when the figures shown went up; else "has not gone down", so the words always
 * agree with the two numbers beside them.
 */
export function followUpBodyKey(s: FollowUpSummary): string {
  if (s.measure === 'confidence') return `analysis.followUp.body.${s.outcome}`;
  if (s.outcome !== 'worse') return `analysis.followUp.share.${s.outcome}`;
  // In whole percents, as shown.
  const up = Math.round(s.now * 100) > Math.round(s.before * 100);
  return `analysis.followUp.share.${up ? 'spreading' : 'notDown'}`;
}
