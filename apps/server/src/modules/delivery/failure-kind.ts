import type { DeliveryFailureKind } from '@kutu/contract';

/*
 * Why a failed row failed, as a kind an administrator can act on. Read from what the row keeps: the
 * error its last try recorded (the SMS adapter's words, adapters/sms.ts, or the mail server's) and, for a
 * row failed by a delivery report, the report's status and Africa's Talking's `failureReason`.
 */

/** Africa's Talking's per-recipient status codes (send replies) and failure reasons (delivery reports). */
const NUMBER_INVALID = [
  '403',
  '404',
  'InvalidPhoneNumber',
  'UnsupportedNumberType',
  'UserDoesNotExist',
  'NotNetworkSubscriber',
];
const NUMBER_BLOCKED = [
  '406',
  'UserInBlacklist',
  'UserIsInactive',
  'UserAccountSuspended',
  'UserNotSubscribedToProduct',
];
const ACCOUNT = ['401', '402', '405', 'RiskHold', 'InvalidSenderId', 'InsufficientBalance', 'InsufficientCredit'];

const hasWord = (text: string, words: string[]) => words.some((w) => new RegExp(`\\b${w}\\b`).test(text));

export function failureKind(row: {
  channel: string;
  error: string | null;
  report: string | null;
}): DeliveryFailureKind {
  const error = row.error ?? '';
  // A refusal in the send's reply: "SMS gateway refused it: 403 InvalidPhoneNumber".
  const refused = /^SMS gateway refused it: (\d+)/.exec(error);
  // A delivery report that said it never arrived: its reason (or status) is the error.
  const reported = row.report === 'Failed' || row.report === 'Rejected';
  if (refused || reported) {
    const said = refused ? `${refused[1]} ${error}` : error;
    if (hasWord(said, NUMBER_INVALID)) return 'number_invalid';
    if (hasWord(said, NUMBER_BLOCKED)) return 'number_blocked';
    if (hasWord(said, ACCOUNT)) return 'gateway_account';
    return reported ? 'not_delivered' : 'unreachable';
  }
  // The gateway refused the request itself: 4xx is Kutu's account or request, 429 and 5xx a busy gateway.
  const answered = /^SMS gateway answered (\d+)/.exec(error);
  if (answered) {
    const status = Number(answered[1]);
    return status >= 400 && status < 500 && status !== 429 ? 'gateway_account' : 'unreachable';
  }
  if (error.startsWith('SMS gateway sent nothing')) return 'unreachable';
  // No answer at all: a timeout, a refused connection, a name that does not resolve.
  if (/timeout|timed out|fetch failed|ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|socket/i.test(error)) {
    return 'unreachable';
  }
  if (row.channel === 'email') {
    // Nodemailer's words: "Can't send mail - all recipients were rejected: 550 …", "Invalid login: 535 …".
    if (/Invalid login|\b53[05]\b|EAUTH/i.test(error)) return 'gateway_account';
    if (/recipients were rejected|\b55[0-3]\b|EENVELOPE/i.test(error)) return 'email_refused';
  }
  return 'other';
}
