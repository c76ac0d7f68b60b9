import { notifications } from '@mantine/notifications';
import i18n from './i18n.ts';

/** How long a notice stays (decision 0018): long enough to read one line, short enough not to hide the form. */
export const NOTICE_MS = 4_000;
/** A success raised this shortly before a route change is the news of the action that moved the user. */
const CARRY_OVER_MS = 1_500;

interface Shown {
  kind: 'success' | 'error';
  at: number;
}
const shown = new Map<string, Shown>();

/**
 * One notice at a time: a new one replaces whatever is up (and anything queued), so an error from a
 * moment ago never sits beside the success that followed it.
 */
function show(kind: Shown['kind'], title: string, message: string) {
  notifications.clean();
  notifications.cleanQueue();
  shown.clear();
  const id = notifications.show({
    title,
    message,
    color: kind === 'success' ? 'green' : 'red',
    withCloseButton: true,
    closeButtonProps: { 'aria-label': i18n.t('notice.close') },
    autoClose: NOTICE_MS,
    onClose: () => shown.delete(id),
  });
  shown.set(id, { kind, at: Date.now() });
}

/** Notices have a title and a message (spec point 8). */
export function notifySuccess(message: string, title = 'Success') {
  show('success', title, message);
}
export function notifyError(message: string, title = 'Error') {
  show('error', title, message);
}

/**
 * Called on every route change: notices belong to the screen that raised them. Only a success raised
 * just before the change (the "Account activated" that sends the user to sign in) comes along.
 */
export function clearNoticesOnNavigation(now = Date.now()) {
  for (const [id, notice] of shown) {
    if (notice.kind === 'success' && now - notice.at <= CARRY_OVER_MS) continue;
    notifications.hide(id);
    shown.delete(id);
  }
}
