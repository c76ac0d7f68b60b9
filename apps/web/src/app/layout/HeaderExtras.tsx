import { NotificationsBell } from '../../components/notifications/NotificationsBell.tsx';
import { LanguageSwitch } from '../../components/LanguageSwitch/LanguageSwitch.tsx';

/** Top-bar additions: the language switch and the notifications bell with its unread badge. */
export function HeaderExtras() {
  return (
    <>
      <LanguageSwitch />
      <NotificationsBell />
    </>
  );
}
