import type { AnalysisResult, ReviewVerdict, SeverityBandName } from '@kutu/contract';
import type { ModuleDeps } from '../../deps.ts';
import { render, t } from '../../i18n/i18n.ts';
import { smsStopped } from '../../lib/sms-stop.ts';
import { answerOfVerdict } from '../analysis/expert-answer.ts';
import type { AnalysisService } from '../analysis/analysis.service.ts';
import type { FollowUpService } from '../followup/followup.service.ts';
import type { createReviewRepo } from './review.repo.ts';
import { verdictMessage } from './verdict-message.ts';

/** An expert's decision on an analysis. */
export type Decision = { verdict: ReviewVerdict; note: string | null; severity: SeverityBandName | null };

/**
 * What follows a verdict for the farmer (docs/decisions/0049): the expert's answer becomes theirs, so
 * advice to treat gets its follow-up reminder (the follow-up service's rule), and the farmer is told, in
 * the app (the record), by SMS and by email, each in their language (verdict-message.ts says what). A
 * failed SMS or email does not undo the verdict.
 */
export function createAnswerFarmer(
  deps: ModuleDeps,
  repo: Pick<ReturnType<typeof createReviewRepo>, 'contactOf'>,
  analysis: Pick<AnalysisService, 'facts'>,
  followUps: Pick<FollowUpService, 'expertAnswered'>,
) {
  async function tellFarmer(a: AnalysisResult & { userId: number }, decision: Decision, revised: boolean) {
    const said = verdictMessage(a, decision, revised, deps.config.publicUrl);
    await deps.notifications.notify(a.userId, 'expert_review', said.notice, said.data);
    const [contact, language] = await Promise.all([repo.contactOf(a.userId), deps.notifications.languageOf(a.userId)]);
    if (!contact) return;
    const stopped = await smsStopped(deps.db, contact.phone);
    await Promise.allSettled([
      stopped ? Promise.resolve() : deps.sms.send(contact.phone, render(language, said.sms)),
      contact.email
        ? deps.mailer.send({
            to: contact.email,
            subject: t(language, 'notifications.reviewSubject'),
            text: `${render(language, said.notice)}\n\n${t(language, 'consultations.seeInKutu', { link: said.link })}`,
          })
        : Promise.resolve(),
    ]);
  }

  return async function answerFarmer(a: AnalysisResult & { userId: number }, decision: Decision, revised: boolean) {
    const facts = await analysis.facts(a.id);
    await followUps.expertAnswered({
      ...facts,
      ...answerOfVerdict(decision.verdict, a.rust_class),
      severity: facts.rustShare,
      // The advice to treat is given now, with the expert's answer: the reminder counts from here.
      createdAt: deps.clock.now(),
    });
    await tellFarmer(a, decision, revised);
  };
}
