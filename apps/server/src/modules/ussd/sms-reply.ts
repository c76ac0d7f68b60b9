import type { Sms } from '../../adapters/sms.ts';

/**
 * The one way this module answers a person by SMS (replies to their own keyword, which they asked for
 * at that moment, so STOP's own confirmation goes too). A failed reply is logged, never retried: the
 * change it reports is already made.
 */
export async function sendReply(sms: Sms, to: string, text: string, log?: (err: unknown) => void): Promise<void> {
  await sms.send(to, text).catch((err: unknown) => log?.(err));
}
