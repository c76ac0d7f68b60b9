import type { Language, NotificationType } from '@kutu/contract';
import type { Message } from '../i18n/i18n.ts';

/**
 * What a feature may do with notifications (`deps.notifications`): send one, read its recipient's
 * language, mark read what the user is looking at. The notifications module implements it
 * (modules/notifications/notifications.service.ts); only its own routes use the whole service.
 */
export interface Notifier {
  /** Stores the notification (a catalog message, read in the reader's language) and announces it. */
  notify(
    userId: number,
    type: NotificationType,
    text: Message | string,
    data?: Record<string, unknown>,
  ): Promise<unknown>;
  /** The language the user reads (English for an unknown user). */
  languageOf(userId: number): Promise<Language>;
  /** Rewrites the user's notifications of `type` about `about` (the thing they tell changed); returns how many. */
  restate(
    userId: number,
    type: NotificationType,
    about: Record<string, unknown>,
    text: Message,
    data: Record<string, unknown>,
  ): Promise<number>;
  /** Marks read the user's notifications of `type` about `about`; returns how many. */
  markReadAbout(userId: number, type: NotificationType, about: Record<string, unknown>): Promise<number>;
}
