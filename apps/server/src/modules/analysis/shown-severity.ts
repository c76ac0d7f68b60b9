import type { AnalysisSeverity, RustSpots } from '@kutu/contract';
import { type SeverityCuts, severityUnmeasured, shownSeverity } from '@kutu/vision';
import type { AnalysisRow } from './analysis.repo.ts';

type Answer = Pick<AnalysisRow, 'outcome' | 'rustClass' | 'unsure' | 'rustShare'>;

/**
 * How much of the leaf shows rust, for confident rust answers only (docs/decisions/0045): the
 * stored rust-coloured share and its band at the served card's cuts (`shownSeverity`, which the phone's
 * offline answer uses too).
 */
export function severityOf(row: Answer, estimate: boolean, cuts: SeverityCuts): AnalysisSeverity | null {
  const shown = shownSeverity(row, row.rustShare, cuts);
  return shown && { ...shown, estimate };
}

/**
 * The spots that share counted, outlined on the photo, with the severity only (docs/decisions/0054): healthy,
 * other-disease, unsure and not-a-leaf answers show none.
 */
export function spotsOf(row: Answer & Pick<AnalysisRow, 'rustSpots'>, cuts: SeverityCuts): RustSpots | null {
  return shownSeverity(row, row.rustShare, cuts) && row.rustSpots ? row.rustSpots : null;
}

/** A confident rust answer whose share could not be measured: the result says so instead of a number. */
export const unmeasuredOf = (row: Answer): boolean => severityUnmeasured(row, row.rustShare);
