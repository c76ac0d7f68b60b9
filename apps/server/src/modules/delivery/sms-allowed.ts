import type { MessageKind } from '../../lib/deliverer.ts';

/** What the permission reads about a person, at the moment of sending. */
export interface SmsPermission {
  smsAlerts: boolean;
}

/**
 * The one place where Kutu decides whether a person may get an SMS. A person's own request for a code
 * (sign-in, password reset) is not a message of this module and is always sent.
 */
export function smsAllowed(person: SmsPermission, kind: MessageKind): boolean {
  if (kind === 'alert' || kind === 'reminder') return person.smsAlerts;
  return true;
}
