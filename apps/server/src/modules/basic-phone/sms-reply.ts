import type { Sms } from '../../adapters/sms.ts';

/**
 * The last reply to a number whose account its SMS just erased: sent at once and kept nowhere (the erasure
 * leaves no trace of the number), a failure logged. Every other reply, to an account or to a number
 * without one, goes through the outbox (basic-phone.service.ts), so a failed one reaches the administrators.
 */
export async function sendReply(sms: Sms, to: string, text: string, log?: (err: unknown) => void): Promise<void> {
  await sms.send(to, text).catch((err: unknown) => log?.(err));
}
