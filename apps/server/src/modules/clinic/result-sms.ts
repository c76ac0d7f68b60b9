import type { AnalysisCrop, ReviewVerdict } from '@kutu/contract';
import { message } from '../../i18n/i18n.ts';
import { type SmsMessage, smsMessage } from '../../i18n/sms-texts.ts';
import type { Tell } from '../../lib/deliverer.ts';
import { verdictText } from '../review/review.texts.ts';

/** What the farmer of a clinic visit is told: the verdict, its advice, the plant doctor's words, the follow-up. */
export interface ClinicResult {
  visitId: number;
  farmerId: number;
  crop: AnalysisCrop;
  verdict: ReviewVerdict;
  recommendation: string | null;
  /** Kutu will ask about the field by SMS, answered by the USSD menu. */
  followUp: boolean;
}

/** The result SMS, rendered in the farmer's language when it is sent (an absent part is empty). */
export function resultSms(r: Omit<ClinicResult, 'visitId' | 'farmerId'>, ussdCode: string): SmsMessage {
  return smsMessage('clinic.resultSms', {
    verdict: verdictText(r.verdict, r.crop),
    advice: message(`clinic.advice.${r.verdict}`),
    recommendation: r.recommendation ? message('clinic.recommendation', { text: r.recommendation }) : '',
    followUp: r.followUp ? message('clinic.followUp', { code: ussdCode }) : '',
  });
}

/**
 * The one message a clinic visit's result leaves Kutu as (docs/decisions/0053), one per visit (its key).
 * It is the answer the farmer came for, asked for at that moment (`requested`, docs/decisions/0050): it
 * goes even when they turned Kutu's unasked SMS off or sent STOP, as a sign-in code does.
 */
export function resultTell(r: ClinicResult, ussdCode: string): Tell {
  return { to: r.farmerId, key: `clinic:${r.visitId}:result`, kind: 'requested', sms: resultSms(r, ussdCode) };
}
