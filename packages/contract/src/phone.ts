import { z } from 'zod';
import { idParam, isoDateTime, pageQuery, paginated } from './common.ts';
import { e164 } from './auth.ts';
import { languages } from './enums.ts';

export { phoneApi, USSD_HOME, USSD_SCREEN_MAX, type UssdHomeItem, ussdMenuNumber } from './phone-paths.ts';

/** Africa's Talking's USSD callback (form fields as the gateway names them). */
export const ussdCallbackBody = z.object({
  sessionId: z.string().min(1).max(100),
  serviceCode: z.string().max(40).default(''),
  phoneNumber: z.string().min(6).max(20),
  networkCode: z.string().max(20).optional(),
  /** Every answer of the session so far, joined by `*`; empty on the first request. */
  text: z.string().max(500).default(''),
});

/** Africa's Talking's two-way SMS callback. */
export const smsInboundBody = z.object({
  from: z.string().min(6).max(20),
  to: z.string().max(20).default(''),
  text: z.string().max(1000).default(''),
  date: z.string().max(40).optional(),
  id: z.string().max(100).optional(),
  linkId: z.string().max(100).optional(),
});

/** The try-out screen's step: the number to act as (the caller's own, or one without an account). */
export const ussdSimulateBody = z.object({
  session_id: z.string().min(1).max(100),
  phone: e164,
  text: z.string().max(500).default(''),
});
export const ussdSimulateReply = z.object({
  /** The gateway's reply as the phone gets it, `CON ` or `END ` first. */
  reply: z.string(),
  end: z.boolean(),
  screen: z.string(),
});
export type UssdSimulateReply = z.infer<typeof ussdSimulateReply>;

export const callbackQuery = pageQuery.extend({ state: z.enum(['open', 'done']).default('open') });
export type CallbackQuery = z.infer<typeof callbackQuery>;
export const callbackRequest = z.object({
  id: z.number().int(),
  farmer: z.string(),
  phone: z.string(),
  district: z.string().nullable(),
  language: z.enum(languages),
  channel: z
    .enum(['ussd', 'sms', 'call'])
    .describe('How the farmer asked: the USSD menu, an SMS keyword, or a key pressed in a call'),
  created_at: isoDateTime,
  done_at: isoDateTime.nullable(),
  /** Who closed it: an expert who marked it done, or an extension officer whose recorded call closed it. */
  done_by: z.object({ name: z.string(), role: z.enum(['expert', 'officer', 'admin']) }).nullable(),
  /** The officer's note on that call: what was said. */
  done_note: z.string().nullable(),
});
export type CallbackRequest = z.infer<typeof callbackRequest>;
export const callbackPage = paginated(callbackRequest);
export type CallbackPage = z.infer<typeof callbackPage>;
export const callbackParams = idParam;
