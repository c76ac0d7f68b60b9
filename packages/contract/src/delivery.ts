import { z } from 'zod';
import { isoDateTime, paginated } from './common.ts';
import { languages } from './enums.ts';

/**
 * The channels outside the app a message may go by: the outbox's `channel`. The one list; each name has
 * its record (address, allowed, send) in apps/server/src/modules/delivery/channels.ts.
 */
export const deliveryChannels = ['sms', 'email', 'voice'] as const;
export type DeliveryChannel = (typeof deliveryChannels)[number];

/**
 * Why a message failed, in kinds an administrator can act on (each has its plain words in the web
 * catalogues, `delivery.reasons.<kind>`): the number is wrong, the person's line takes no messages,
 * Kutu's own gateway account refused it, the network could not deliver it to the phone, the gateway or
 * mail server could not be reached (every try), the mail server refused the address, or something else.
 */
export const deliveryFailureKinds = [
  'number_invalid',
  'number_blocked',
  'gateway_account',
  'not_delivered',
  'unreachable',
  'email_refused',
  'other',
] as const;
export type DeliveryFailureKind = (typeof deliveryFailureKinds)[number];

/** A message (SMS or email) that failed for good, as an administrator sees it (docs/decisions/0050). */
export const failedMessage = z.object({
  id: z.number().int(),
  channel: z.enum(deliveryChannels),
  to: z.object({
    id: z.number().int().nullable().describe('The account; null for a number without one (the reply to its SMS)'),
    username: z.string().describe("The account's username, or the number when it has no account"),
    address: z.string().describe('The phone number or email address it was sent to (as the account has it now)'),
  }),
  text: z
    .string()
    .describe(
      "The message as it was sent: in the recipient's language, as the channel sends it (an SMS's numbered parts one a line)",
    ),
  language: z.enum(languages).describe('The language the text is in: the recipient’s'),
  attempts: z.number().int(),
  reason_kind: z.enum(deliveryFailureKinds).describe('Why it failed, as a kind to put in plain words'),
  reason: z.string().describe("The gateway's or mail server's own answer, as it gave it"),
  report: z.string().nullable().describe("The gateway's last delivery report status, if any"),
  created_at: isoDateTime,
});
export type FailedMessage = z.infer<typeof failedMessage>;
export const failedMessagePage = paginated(failedMessage);
export type FailedMessagePage = z.infer<typeof failedMessagePage>;

/** Africa's Talking's delivery report callback (a form POST). */
export const deliveryReport = z.object({
  id: z.string().min(1).max(200),
  status: z.string().min(1).max(50),
  phoneNumber: z.string().max(40).optional(),
  networkCode: z.string().max(20).optional(),
  failureReason: z.string().max(200).optional(),
  retryCount: z.string().max(10).optional(),
});
export type DeliveryReport = z.infer<typeof deliveryReport>;
