import { adviceTopicFor, type ReviewVerdict, type RustClass, type SeverityBandName, shortLinks } from '@kutu/contract';
import { type Message, message } from '../../i18n/i18n.ts';
import { type SmsMessage, smsMessage } from '../../i18n/sms-texts.ts';
import { verdictText } from '../../i18n/rust-words.ts';
import { answerOfVerdict } from '../analysis/analysis.service.ts';
import { reviewNotice } from './review.texts.ts';

/** What the farmer is sent when an expert answers (or changes the answer on) their photo. */
export interface VerdictMessage {
  /** The in-app notification (the record); it opens the analysis. */
  notice: Message;
  data: { analysis_id: number; verdict: ReviewVerdict; severity: SeverityBandName | null; revised: boolean };
  /** The SMS: the verdict, the advice's first step and the link, one message. */
  sms: SmsMessage;
  /** Where both lead: the result in the app. */
  link: string;
}

/**
 * The expert's answer as the farmer hears of it (docs/decisions/0049): the verdict named for the crop,
 * with the expert's severity band and note, and, for a revision, that the answer changed. The SMS also
 * carries the first step of the answer's advice (a short form of it per advice topic, measured in every
 * language like every SMS), so a farmer without data can act on the SMS alone. It is one message: the day
 * Kutu will ask about the field did not fit beside them (two parts arrived cut mid-sentence); the result's
 * page says it, and the reminder itself asks that day. Building the message is kept apart from sending it, so the
 * way it is sent can change on its own.
 */
export function verdictMessage(
  analysis: { id: number; crop: string | null; rust_class: RustClass | null },
  decision: { verdict: ReviewVerdict; note: string | null; severity: SeverityBandName | null },
  revised: boolean,
  publicUrl: string,
): VerdictMessage {
  const withBand = (named: Message) =>
    decision.severity
      ? message('notifications.verdictSeverity', {
          verdict: named,
          band: message(`notifications.severityBands.${decision.severity}`),
        })
      : named;
  const verdict = withBand(verdictText(decision.verdict, analysis.crop));
  // The SMS names rust without its Latin name, so it fits one GSM-7 message with the link.
  const crop = analysis.crop === 'maize' || analysis.crop === 'beans' ? analysis.crop : 'any';
  const smsVerdict = withBand(
    decision.verdict === 'common_rust'
      ? message(`notifications.smsRustNames.${crop}`)
      : verdictText(decision.verdict, null),
  );
  const link = `${publicUrl}${shortLinks.analysis(analysis.id)}`;
  // The advice the answer shows (the same topic rule as the result's advice).
  const topic = adviceTopicFor(answerOfVerdict(decision.verdict, analysis.rust_class));
  return {
    notice: reviewNotice(verdict, revised, decision.note),
    data: { analysis_id: analysis.id, verdict: decision.verdict, severity: decision.severity, revised },
    sms: smsMessage(revised ? 'notifications.reviewSmsChanged' : 'notifications.reviewSms', {
      verdict: smsVerdict,
      step: message(`notifications.smsFirstStep.${topic}`),
      link,
    }),
    link,
  };
}
