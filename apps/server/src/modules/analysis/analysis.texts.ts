import { confidencePercent, type RustClass } from '@kutu/contract';
import { type Message, message } from '../../i18n/i18n.ts';
import { rustName } from '../../i18n/rust-words.ts';
import type { AnalysisRow } from './analysis.repo.ts';

/**
 * The farmer's notification of a finished analysis, in every language: the answer as it stands (for a
 * field of several leaves, the field's answer, and how many leaves it counted).
 */
export function analysisNotice(
  a: Pick<AnalysisRow, 'outcome' | 'confidence' | 'unsure' | 'crop' | 'photoCount'> & { rustClass: string | null },
): Message {
  const rustClass = a.rustClass as RustClass | null;
  if (a.outcome === 'not_leaf' || !rustClass) return message('notifications.analysisNoLeaf');
  const leaves = a.photoCount > 1 ? a.photoCount : null;
  const key = a.unsure
    ? leaves
      ? 'notifications.analysisUnsureLeaves'
      : 'notifications.analysisUnsure'
    : leaves
      ? 'notifications.analysisResultLeaves'
      : 'notifications.analysisResult';
  return message(key, {
    // Rust named for the crop, as its farmers call it: bean rust on beans, common rust on maize.
    result: rustClass === 'common_rust' ? rustName(a.crop) : message(`notifications.classes.${rustClass}`),
    percent: confidencePercent(a.confidence),
    ...(leaves ? { leaves } : {}),
  });
}

/** What the notification's data says about the analysis (the web opens the result from it). */
export const analysisNoticeData = (a: Pick<AnalysisRow, 'id' | 'outcome' | 'rustClass' | 'unsure' | 'photoCount'>) => ({
  analysis_id: a.id,
  outcome: a.outcome,
  rust_class: a.rustClass,
  unsure: a.unsure,
  leaves: a.photoCount,
});
