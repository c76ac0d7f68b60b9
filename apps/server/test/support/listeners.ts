import type { NotificationsService } from '../../src/modules/notifications/notifications.service.ts';

/**
 * Counts the live listeners of the notifications service (open streams) from the outside: wraps its
 * `subscribe`, which the stream route calls on each opening, so the service keeps no member for tests.
 */
export function countListeners(service: Pick<NotificationsService, 'subscribe'>): () => number {
  const live = new Set<object>();
  const subscribe = service.subscribe.bind(service);
  service.subscribe = (listener) => {
    const off = subscribe(listener);
    const token = {};
    live.add(token);
    return () => {
      live.delete(token);
      off();
    };
  };
  return () => live.size;
}
