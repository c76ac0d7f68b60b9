import type { ReviewVerdict } from '@kutu/contract';
import { type Message, message } from './i18n.ts';

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
