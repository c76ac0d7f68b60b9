import i18n from './i18n.ts';

/** How long a notice stays (decision 0018): long enough to read one line, short enough not to hide the form. */
export const NOTICE_MS = 4_000;
/** A success raised this shortly before a route change is the news of the action that moved the user. */
const CARRY_OVER_MS = 1_500;

interface Shown {
  kind: 'success' | 'error' | 'info';
  at: number;
}
const shown = new Map<string, Shown>();
let nextId = 0;

// The toast package (store, container, transitions: ~14 KiB brotli) loads with the first notice, so it
// is not in the entry every route downloads (decision 0016). Calls made before it arrives run in order on
// the same promise.
let toasts: Promise<typeof import('./toasts.ts')> | undefined;
const toastListeners = new Set<() => void>();
const loadToasts = () => {
  if (!toasts) {
    toasts = import('./toasts.ts');
    for (const listener of toastListeners) listener();
  }
  return toasts;
};
/** For the app's toast container: whether a notice has been raised yet (then it renders the package's). */
export const toastsNeeded = {
  subscribe(listener: () => void) {
    toastListeners.add(listener);
    return () => toastListeners.delete(listener);
  },
  get: () => toasts !== undefined,
};

/**
 * One notice at a time: a new one replaces whatever is up (and anything queued), so an error from a
 * moment ago never sits beside the success that followed it.
 */
function show(kind: Shown['kind'], title: string | undefined, message: string) {
  shown.clear();
  const id = `notice-${++nextId}`;
  shown.set(id, { kind, at: Date.now() });
  const closeLabel = i18n.t('notice.close');
  void loadToasts().then(({ notifications }) => {
    notifications.clean();
    notifications.cleanQueue();
    notifications.show({
      id,
      title,
      message,
      color: kind === 'success' ? 'green' : kind === 'error' ? 'red' : 'blue',
      withCloseButton: true,
      closeButtonProps: { 'aria-label': closeLabel },
      autoClose: NOTICE_MS,
      onClose: () => shown.delete(id),
    });
  });
}

/** Notices have a title and a message (spec point 8), the title in the reader's language. */
export function notifySuccess(message: string, title = i18n.t('notice.success')) {
  show('success', title, message);
}
export function notifyError(message: string, title = i18n.t('notice.error')) {
  show('error', title, message);
}
/** News that is neither a success nor a failure (an unsure answer, no leaf found): no title that judges it. */
export function notifyInfo(message: string) {
  show('info', undefined, message);
}

/**
 * Called on every route change: notices belong to the screen that raised them. Only a success raised
 * just before the change (the "Account activated" that sends the user to sign in) comes along.
 */
export function clearNoticesOnNavigation(now = Date.now()) {
  for (const [id, notice] of shown) {
    if (notice.kind === 'success' && now - notice.at <= CARRY_OVER_MS) continue;
    shown.delete(id);
    void loadToasts().then(({ notifications }) => notifications.hide(id));
  }
}
