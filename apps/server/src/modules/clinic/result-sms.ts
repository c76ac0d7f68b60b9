import type { AnalysisCrop, ReviewVerdict, Walk } from '@kutu/contract';
import { message } from '../../i18n/i18n.ts';
import { type SmsMessage, smsMessage } from '../../i18n/sms-texts.ts';
import type { Tell } from '../../lib/deliverer.ts';
import { verdictText } from '../../i18n/rust-words.ts';
import { walkAnswer } from '../fields/walks.service.ts';

/** What the farmer of a clinic visit is told: the verdict, its advice, the plant doctor's words, the follow-up. */
export interface ClinicResult {
  visitId: number;
  farmerId: number;
  crop: AnalysisCrop;
  verdict: ReviewVerdict;
  recommendation: string | null;
  /** Kutu will ask about the field by SMS, answered by the USSD menu. */
  followUp: boolean;
  /** The walk the expert counted at the visit, if any: with a rust verdict its advice is the field's. */
  walk?: Walk | null;
}

/**
 * The advice the farmer reads: with a rust verdict and a walk, the field's (what it rests on, the first step,
 * the comparison: docs/decisions/0078), since the count says how much of the field has rust and a leaf cannot;
 * otherwise the verdict's.
 */
function adviceOf(r: Pick<ClinicResult, 'verdict' | 'walk'>) {
  if (r.verdict !== 'common_rust' || !r.walk) return message(`clinic.advice.${r.verdict}`);
  return message('clinic.fieldAdvice', { ...walkAnswer(r.walk) });
}

/** The result SMS, rendered in the farmer's language when it is sent (an absent part is empty). */
export function resultSms(r: Omit<ClinicResult, 'visitId' | 'farmerId'>, ussdCode: string): SmsMessage {
  return smsMessage('clinic.resultSms', {
    verdict: verdictText(r.verdict, r.crop),
    advice: adviceOf(r),
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
