import { NotificationsBell } from '../../features/notifications/components/NotificationsBell.tsx';

/** Top-bar additions: the notifications bell with its unread badge. */
export function HeaderExtras() {
  return <NotificationsBell />;
}
