import type { Language } from '@kutu/contract';
import { type Params, t } from './i18n.ts';

/**
 * Every SMS Kutu sends, by its catalog key, with the number of messages it may take at the longest
 * values it is sent with (i18n/sms-texts.test.ts renders each in every language). One message is
 * the rule: a farmer's basic phone shows a split text as separate messages, possibly out of order, and
 * each part is paid for. A key is allowed more only where its content cannot be shorter (an alert with
 * what to look for; the plant doctor's own words).
 */
export const smsTexts = {
  'sms.activation': { parts: 1 },
  'sms.activationLink': { parts: 1 },
  'sms.reset': { parts: 1 },
  // The verdict with the first step of its advice, so that the farmer can act on the SMS without data; then
  // the link. One message: two arrived cut mid-sentence, possibly out of order.
  'notifications.reviewSms': { parts: 1 },
  'notifications.reviewSmsChanged': { parts: 1 },
  'notifications.communityAnswerSms': { parts: 1 },
  // The expert's place (up to 200 characters) or video link (up to 500) as they wrote it.
  'consultations.approved.sms': { parts: 5 },
  'consultations.rejected.sms': { parts: 1 },
  // The reason as its writer wrote it (up to 500 characters).
  'consultations.cancelled.sms': { parts: 5 },
  'consultations.reminder.smsToFarmer': { parts: 5 },
  'consultations.reminder.smsToExpert': { parts: 5 },
  'vetting.approved.sms': { parts: 1 },
  // The administrator's reason is up to 500 characters.
  'vetting.refused.sms': { parts: 4 },
  'officer.approved.sms': { parts: 1 },
  'officer.refused.sms': { parts: 4 },
  'officer.withdrawn.sms': { parts: 4 },
  // The Monday summary to an extension officer without an email address.
  'officer.weekly.sms': { parts: 1 },
  // What to look for in the field, so that the farmer can act on the SMS alone; sent to every farmer of a
  // district, so one message (`bulkSmsKeys`).
  'outbreak.alert.sms': { parts: 1 },
  'outbreak.alert.smsNeighbour': { parts: 1 },
  'outbreak.alert.expertSms': { parts: 1 },
  // Rust weather before any confirmation (docs/decisions/0100): the district, crop and the day to walk by.
  'forecast.advisory.sms': { parts: 1 },
  'forecast.advisory.staffSms': { parts: 1 },
  // The Monday bulletin to an administrator or national officer without an email address (docs/decisions/0122).
  'forecast.bulletin.sms': { parts: 1 },
  // The field's name (up to 40 characters, GSM-7 only) and the link to its walk.
  'followUp.walkSms': { parts: 1 },
  // A farmer who answers by basic phone: the field's crop and number, the USSD menu and the WALK keyword.
  'followUp.smsUssd': { parts: 1 },
  'smsIn.help': { parts: 1 },
  'smsIn.stopped': { parts: 1 },
  'smsIn.started': { parts: 1 },
  'smsIn.alertsOn': { parts: 1 },
  // ALERTS ON after STOP: every SMS is back, and the alerts.
  'smsIn.alertsOnResumed': { parts: 1 },
  'smsIn.alertsOff': { parts: 1 },
  'smsIn.district': { parts: 1 },
  'smsIn.districtUnknown': { parts: 1 },
  'smsIn.callMe': { parts: 1 },
  'smsIn.unknownNumber': { parts: 1 },
  // Account deletion (DELETE by SMS, or the profile's code for an account without a password).
  'smsIn.deleteCode': { parts: 1 },
  'smsIn.deleted': { parts: 1 },
  'smsIn.deleteWrongCode': { parts: 1 },
  'smsIn.deleteAdmin': { parts: 1 },
  // DELETE again before a new code may be sent: when it may (errors.auth.waitBeforeResend or tooManyCodes).
  'smsIn.deleteWait': { parts: 1 },
  'smsIn.photosOn': { parts: 1 },
  'smsIn.photosOff': { parts: 1 },
  // A farmer's fields and a walk by SMS (docs/decisions/0078): the walk's answer is what it rests on, the
  // advice's first step and the comparison with the walk before, at the longest counts (1000 plants).
  'smsIn.walk': { parts: 1 },
  'smsIn.walkHow': { parts: 1 },
  'smsIn.walkMore': { parts: 1 },
  'smsIn.walkNoField': { parts: 1 },
  // As many fields as fit two messages (basic-phone/sms-fields.ts), then "and 12 more".
  'smsIn.fields': { parts: 2 },
  'smsIn.fieldsNone': { parts: 1 },
  // The verdict and its advice, the plant doctor's words (up to 320 characters) and the follow-up.
  'clinic.resultSms': { parts: 5 },
} as const satisfies Record<string, { parts: number }>;

export type SmsKey = keyof typeof smsTexts;

/**
 * The texts sent to many people at once (an alert's fan-out, the walk reminders, the Monday report): each
 * is one GSM-7 message in every language at the longest district and county names, since a second part
 * doubles what a fan-out to every farmer of a district costs (i18n/bulk-sms.test.ts renders each so).
 */
export const bulkSmsKeys = [
  'outbreak.alert.sms',
  'outbreak.alert.smsNeighbour',
  'outbreak.alert.expertSms',
  'officer.weekly.sms',
  'followUp.walkSms',
  'followUp.smsUssd',
  'forecast.advisory.sms',
  'forecast.advisory.staffSms',
] as const satisfies readonly SmsKey[];
export type BulkSmsKey = (typeof bulkSmsKeys)[number];

/** An SMS as the outbox keeps it: one of the keys above and its values, rendered in the person's language when sent. */
export type SmsMessage<K extends SmsKey = SmsKey> = { key: K; params?: Params };

export const smsMessage = <K extends SmsKey>(key: K, params?: Params): SmsMessage<K> => ({ key, params });

/** An SMS sent at once (a code, a reply to a keyword), in `language`. */
export const smsText = (language: Language, key: SmsKey, params?: Params): string => t(language, key, params);
