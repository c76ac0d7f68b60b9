import type { NotificationItem, NotificationList, NotificationType, PageQuery } from '@kutu/contract';
import { systemClock, type Clock } from '../../adapters/clock.ts';
import type { Db } from '../../db/client.ts';
import { notFound } from '../../lib/errors.ts';
import { pageWindow, toPage } from '../../lib/pagination.ts';
import { createNotificationsRepo, type NotificationRow } from './notifications.repo.ts';

/** What live listeners (the event stream) hear about a user. */
export type NotificationEvent =
  | { kind: 'created'; notification: NotificationItem; unreadCount: number }
  | { kind: 'read'; unreadCount: number };
export type NotificationListener = (userId: number, event: NotificationEvent) => void;

export function toNotificationItem(row: NotificationRow): NotificationItem {
  return {
    id: row.id,
    type: row.type as NotificationType,
    message: row.message,
    date: row.createdAt.toISOString(),
    read: row.readAt !== null,
    data: row.data ?? {},
  };
}

/**
 * Stores notifications per user. Other features call `notify`; listeners (the live event stream) are
 * told about new and read notifications of a user. Listeners live in this process: with several
 * server processes a client on another one learns of new notifications by polling.
 */
export function createNotificationsService(db: Db, clock: Clock = systemClock) {
  const repo = createNotificationsRepo(db);
  const listeners = new Set<NotificationListener>();

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
    async notify(userId: number, type: NotificationType, message: string, data: Record<string, unknown> = {}) {
      const created = await repo.insert({ userId, type, message, data, createdAt: clock.now() });
      if (listeners.size > 0) {
        const unreadCount = await repo.countForUser(userId, true);
        emit(userId, { kind: 'created', notification: toNotificationItem(created), unreadCount });
      }
      return created;
    },

    async list(userId: number, query: PageQuery & { unread?: 'true' | 'false' }): Promise<NotificationList> {
      const unreadOnly = query.unread === 'true';
      const [rows, total, unread] = await Promise.all([
        repo.listForUser(userId, { ...pageWindow(query), unreadOnly }),
        repo.countForUser(userId, unreadOnly),
        repo.countForUser(userId, true),
      ]);
      return { ...toPage(rows.map(toNotificationItem), total, query), unread_count: unread };
    },

    async unreadCount(userId: number): Promise<number> {
      return repo.countForUser(userId, true);
    },

    /** Only the owner can mark a notification read; anyone else gets the same 404 as for a missing one. */
    async markRead(userId: number, id: number): Promise<NotificationItem> {
      const row = await repo.markRead(userId, id, clock.now());
      if (!row) throw notFound('Notification not found');
      emit(userId, { kind: 'read', unreadCount: await repo.countForUser(userId, true) });
      return toNotificationItem(row);
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
      if (updated > 0) emit(userId, { kind: 'read', unreadCount });
      return { updated, unread_count: unreadCount };
    },

    /** How many live listeners are attached (open streams); for tests and health checks. */
    listenerCount: () => listeners.size,

    subscribe(listener: NotificationListener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}
export type NotificationsService = ReturnType<typeof createNotificationsService>;
