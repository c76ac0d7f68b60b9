import type { NotificationType } from '@kutu/contract';
import type { Db } from '../../db/client.ts';
import { createNotificationsRepo } from './notifications.repo.ts';

export type NotificationListener = (userId: number) => void;

/**
 * Stores a notification for a user. Other features call `notify`; listeners (live updates) are told
 * which user has something new.
 */
export function createNotificationsService(db: Db) {
  const repo = createNotificationsRepo(db);
  const listeners = new Set<NotificationListener>();
  return {
    async notify(userId: number, type: NotificationType, message: string, data: Record<string, unknown> = {}) {
      const created = await repo.insert({ userId, type, message, data });
      for (const listener of listeners) listener(userId);
      return created;
    },
    subscribe(listener: NotificationListener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
export type NotificationsService = ReturnType<typeof createNotificationsService>;
