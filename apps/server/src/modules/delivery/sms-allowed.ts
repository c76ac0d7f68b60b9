import type { MessageKind } from '../../lib/deliverer.ts';

/** What the permission reads about a person, at the moment of sending. */
export interface SmsPermission {
  smsAlerts: boolean;
  /** When the person's number sent STOP (and not START since), docs/decisions/0051. */
  smsStoppedAt: Date | null;
}

/**
 * The one place where Kutu decides whether a person may get an SMS (docs/decisions/0050, 0051). STOP
 * stops every SMS Kutu sends on its own; turning SMS alerts off stops alerts and reminders. Only what the
 * person asked for at that moment goes regardless: `requested` (a plant clinic's result), and the codes
 * (sign-in, password reset), which are not messages of this module.
 */
export function smsAllowed(person: SmsPermission, kind: MessageKind): boolean {
  if (kind === 'requested') return true;
  if (person.smsStoppedAt) return false;
  if (kind === 'alert' || kind === 'reminder') return person.smsAlerts;
  return true;
}
