import { NotificationsBell } from '../../features/notifications/components/NotificationsBell.tsx';
import { LanguageSwitch } from '../LanguageSwitch/LanguageSwitch.tsx';

/** Top-bar additions: the language switch and the notifications bell with its unread badge. */
export function HeaderExtras() {
  return (
    <>
      <LanguageSwitch />
      <NotificationsBell />
    </>
  );
}
