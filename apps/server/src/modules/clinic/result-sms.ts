import type { AnalysisCrop, Language, ReviewVerdict } from '@kutu/contract';
import type { ModuleDeps } from '../../deps.ts';
import { message, render } from '../../i18n/i18n.ts';
import { verdictText } from '../review/review.texts.ts';

/** What the farmer of a clinic visit is told: the verdict, its advice, the plant doctor's words, the follow-up. */
export interface ClinicResult {
  phone: string;
  language: Language;
  crop: AnalysisCrop;
  verdict: ReviewVerdict;
  recommendation: string | null;
  /** Kutu will ask about the field by SMS, answered by the USSD menu. */
  followUp: boolean;
}

/** The result SMS, in the farmer's language. */
export function resultSmsText(r: ClinicResult, ussdCode: string): string {
  const parts = [
    render(
      r.language,
      message('clinic.resultSms', {
        verdict: verdictText(r.verdict, r.crop),
        advice: message(`clinic.advice.${r.verdict}`),
      }),
    ),
    r.recommendation ? render(r.language, message('clinic.recommendation', { text: r.recommendation })) : null,
    r.followUp ? render(r.language, message('clinic.followUp', { code: ussdCode })) : null,
  ];
  return parts.filter(Boolean).join(' ');
}

/**
 * The one place a clinic visit's result leaves Kutu (docs/decisions/0053). It is the answer the farmer
 * came for, asked for at that moment, so it goes even when they turned Kutu's unasked SMS off.
 */
export async function sendResultSms(deps: Pick<ModuleDeps, 'sms' | 'config'>, r: ClinicResult): Promise<void> {
  await deps.sms.send(r.phone, resultSmsText(r, deps.config.phone.ussdCode));
}
