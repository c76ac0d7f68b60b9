import { type Message, message } from '../../i18n/i18n.ts';
/**
 * Progressive delay after failed sign-ins (docs/decisions/0008, L3), instead of a hard lock-out that
 * anyone could trigger for any account. Counted per account for unknown devices and per device for a
 * known one, so a stranger's failures never hold up the owner's own browser.
 */
export const FREE_FAILURES = 4;
export const MAX_DELAY_MS = 5 * 60 * 1000;
/** Failures are forgotten after this long without a new one. */
export const FORGET_FAILURES_AFTER_MS = 60 * 60 * 1000;

/** How long to wait after the last failure, given how many there were: 0, …, 1 s, 2 s, 4 s … 5 min. */
export function delayAfterFailures(failures: number): number {
  if (failures <= FREE_FAILURES) return 0;
  return Math.min(MAX_DELAY_MS, 1000 * 2 ** (failures - FREE_FAILURES - 1));
}

/** Milliseconds still to wait before the next try (0: go ahead). */
export function waitBeforeNextTry(failures: { count: number; lastAt: Date } | undefined, now: Date): number {
  if (!failures) return 0;
  const since = now.getTime() - failures.lastAt.getTime();
  if (since >= FORGET_FAILURES_AFTER_MS) return 0;
  return Math.max(0, delayAfterFailures(failures.count) - since);
}

/** "Please wait 8 seconds" / "4 minutes". */
export function waitMessage(ms: number): Message {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  if (seconds < 120) return message('errors.auth.backOffSeconds', { count: seconds });
  return message('errors.auth.backOffMinutes', { count: Math.ceil(seconds / 60) });
}
