import { confidencePercent, type RustClass } from '@kutu/contract';
import { type Message, message } from '../../i18n/i18n.ts';
import { rustName } from '../review/review.texts.ts';

/** The farmer's notification of a finished analysis (the contract's `notificationMessage`, in every language). */
export function analysisNotice(
  outcome: string,
  rustClass: RustClass | null,
  confidence: number,
  unsure: boolean,
  crop: string | null,
): Message {
  if (outcome === 'not_leaf' || !rustClass) return message('notifications.analysisNoLeaf');
  return message(unsure ? 'notifications.analysisUnsure' : 'notifications.analysisResult', {
    // Rust named for the crop, as its farmers call it: bean rust on beans, common rust on maize.
    result: rustClass === 'common_rust' ? rustName(crop) : message(`notifications.classes.${rustClass}`),
    percent: confidencePercent(confidence),
  });
}
