import type {
  Language,
  NotificationItem,
  NotificationList,
  NotificationType,
  PageQuery,
  StreamReady,
} from '@kutu/contract';
import { systemClock, type Clock } from '../../adapters/clock.ts';
import { type Coordinator, createMemoryCoordinator } from '../../adapters/coordinator.ts';
import type { Db } from '../../db/client.ts';
import { createLanguageRepo } from '../../lib/language.repo.ts';
import { type Message, render, restoreMessage, storeMessage } from '../../i18n/i18n.ts';
import { notFound } from '../../lib/errors.ts';
import { pageWindow, toPage } from '../../lib/pagination.ts';
import { createNotificationsRepo, type NotificationRow } from './notifications.repo.ts';

/** "Has an unread notification of this type", as a condition of another module's query (community's). */
export { hasUnreadSql, noticeFacts } from './notifications.repo.ts';
/** The outbox's inserts of in-app notifications, in its own statements (delivery's write()). */
export { insertNoticesForEachSql, insertNoticesSql, type NewNotification } from './notifications.repo.ts';

/** What live listeners (the event stream) hear about a user. */
export type NotificationEvent =
  | { kind: 'created'; notification: NotificationItem; unreadCount: number }
  | { kind: 'read'; unreadCount: number };
export type NotificationListener = (userId: number, event: NotificationEvent) => void;

/**
 * A notification as `language`'s reader reads it: its text rendered now in that language, so a change of
 * language applies to the notifications already received too;
 * one stored before texts were kept as keys, or given as plain words, as it was written.
 */
export function toNotificationItem(row: NotificationRow, language: Language): NotificationItem {
  return {
    id: row.id,
    type: row.type as NotificationType,
    message: row.text ? render(language, restoreMessage(row.text)) : row.message,
    date: row.createdAt.toISOString(),
    read: row.readAt !== null,
    data: row.data ?? {},
  };
}

/**
 * Stores notifications per user. Other features call `notify`; listeners (the live event stream) are
 * told about new and read notifications of a user. The news travels through the coordinator, so a
 * listener in any process hears of a notification created in any other (docs/decisions/0021).
 */
export function createNotificationsService(
  db: Db,
  clock: Clock = systemClock,
  coordinator: Coordinator = createMemoryCoordinator(),
) {
  const repo = createNotificationsRepo(db);
  const listeners = new Set<NotificationListener>();
  const languages = createLanguageRepo(db);
  /** The language the user reads (English for an unknown user). */
  const languageOf = async (userId: number): Promise<Language> => (await languages.ofUser(userId)) ?? 'en';

  // Only a process with open streams reads anything back; the others ignore the news.
  coordinator.on('notification-created', ({ userId, notificationId }) => {
    if (listeners.size === 0) return;
    void (async () => {
      const row = await repo.findForUser(userId, notificationId);
      if (!row) return;
      const [unreadCount, language] = await Promise.all([repo.countForUser(userId, true), languageOf(userId)]);
      emit(userId, { kind: 'created', notification: toNotificationItem(row, language), unreadCount });
    })().catch(() => {});
  });
  coordinator.on('notifications-read', ({ userId }) => {
    if (listeners.size === 0) return;
    void repo
      .countForUser(userId, true)
      .then((unreadCount) => emit(userId, { kind: 'read', unreadCount }))
      .catch(() => {});
  });
  /** Failing to tell live streams must not fail the action: the notification is stored. */
  const announce = (event: Parameters<Coordinator['publish']>[0]) => coordinator.publish(event).catch(() => {});

  function emit(userId: number, event: NotificationEvent) {
    for (const listener of listeners) {
      try {
        listener(userId, event);
      } catch {
        // A broken listener (a closed stream) must not fail the feature that notified.
      }
    }
  }

  return {
    languageOf,

    /**
     * Stores a notification as a catalog key and its values, read in the reader's language of the
     * moment (a change of language applies to older notifications too), and as written in the recipient's language now (`message`, for what reads
     * the table directly). A plain string is stored as written (tests, the user's own words).
     */
    async notify(userId: number, type: NotificationType, text: Message | string, data: Record<string, unknown> = {}) {
      const message = typeof text === 'string' ? text : render(await languageOf(userId), text);
      const stored = typeof text === 'string' ? null : storeMessage(text);
      const created = await repo.insert({ userId, type, message, text: stored, data, createdAt: clock.now() });
      await announce({ type: 'notification-created', userId, notificationId: created.id });
      return created;
    },

    /**
     * Says anew what a notification about something says, when that thing changed (an analysis whose
     * answer more leaves changed): the one notice stays, now right, rather than a second beside it. Its
     * read state is kept; live pages are told, as of a new one. Returns how many were rewritten.
     */
    async restate(
      userId: number,
      type: NotificationType,
      about: Record<string, unknown>,
      text: Message,
      data: Record<string, unknown>,
    ): Promise<number> {
      const message = render(await languageOf(userId), text);
      const ids = await repo.restateAbout(userId, type, about, { message, text: storeMessage(text), data });
      for (const notificationId of ids) await announce({ type: 'notification-created', userId, notificationId });
      return ids.length;
    },

    /** The user's notifications in `language` (the reader's: the account's, else the browser's). */
    async list(
      userId: number,
      query: PageQuery & { unread?: 'true' | 'false' },
      language?: Language,
    ): Promise<NotificationList> {
      const unreadOnly = query.unread === 'true';
      const [rows, total, unread, reader] = await Promise.all([
        repo.listForUser(userId, { ...pageWindow(query), unreadOnly }),
        repo.countForUser(userId, unreadOnly),
        repo.countForUser(userId, true),
        language ?? languageOf(userId),
      ]);
      return {
        ...toPage(
          rows.map((r) => toNotificationItem(r, reader)),
          total,
          query,
        ),
        unread_count: unread,
      };
    },

    /** What the stream's `ready` event tells a page: its unread count and its newest notification's id. */
    async streamState(userId: number): Promise<StreamReady> {
      const [unread, [newest]] = await Promise.all([
        repo.countForUser(userId, true),
        repo.listForUser(userId, { limit: 1, offset: 0, unreadOnly: false }),
      ]);
      return { unread_count: unread, latest_id: newest?.id ?? null };
    },

    /** Only the owner can mark a notification read; anyone else gets the same 404 as for a missing one. */
    async markRead(userId: number, id: number, language?: Language): Promise<NotificationItem> {
      const row = await repo.markRead(userId, id, clock.now());
      if (!row) throw notFound('errors.notifications.notFound');
      await announce({ type: 'notifications-read', userId });
      return toNotificationItem(row, language ?? (await languageOf(userId)));
    },

    /** Marks read what the user is looking at (e.g. the result of one analysis); returns how many. */
    async markReadAbout(userId: number, type: NotificationType, about: Record<string, unknown>): Promise<number> {
      const updated = await repo.markReadAbout(userId, type, about, clock.now());
      if (updated > 0) emit(userId, { kind: 'read', unreadCount: await repo.countForUser(userId, true) });
      return updated;
    },

    async markAllRead(userId: number): Promise<{ updated: number; unread_count: number }> {
      const updated = await repo.markAllRead(userId, clock.now());
      const unreadCount = await repo.countForUser(userId, true);
      if (updated > 0) await announce({ type: 'notifications-read', userId });
      return { updated, unread_count: unreadCount };
    },

    subscribe(listener: NotificationListener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}
export type NotificationsService = ReturnType<typeof createNotificationsService>;
