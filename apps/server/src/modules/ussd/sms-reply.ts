import type { Sms } from '../../adapters/sms.ts';

/**
 * The reply to a number without an account (it has no outbox row to keep): sent at once, a failure
 * logged. Replies to an account go through the outbox (ussd.service.ts), so a failed one reaches the
 * administrators' failed messages.
 */
export async function sendReply(sms: Sms, to: string, text: string, log?: (err: unknown) => void): Promise<void> {
  await sms.send(to, text).catch((err: unknown) => log?.(err));
}
