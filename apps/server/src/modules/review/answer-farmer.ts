import { createHash } from 'node:crypto';
import type { AnalysisResult } from '@kutu/contract';
import type { ModuleDeps } from '../../deps.ts';
import { message } from '../../i18n/i18n.ts';
import type { Db } from '../../db/client.ts';
import type { Tell } from '../../lib/deliverer.ts';
import { type AnalysisService, answerOfVerdict } from '../analysis/analysis.service.ts';
import type { FollowUpService } from '../followup/followup.service.ts';
import { createReviewRepo, type Decision } from './review.repo.ts';
import { verdictMessage } from './verdict-message.ts';

export type { Decision };

/**
 * What the farmer is told of a verdict (docs/decisions/0049), in the app (the record), by SMS and by
 * email, each in their language (verdict-message.ts says what), as a delivery message written in the
 * verdict's own transaction (docs/decisions/0050).
 */
export function verdictTell(
  a: AnalysisResult & { userId: number },
  decision: Decision,
  revised: boolean,
  at: Date,
  publicUrl: string,
): Tell {
  const said = verdictMessage(a, decision, revised, publicUrl);
  return {
    to: a.userId,
    // Each decision (a revision too: its own time) is its own message; the same decision told twice is one.
    key: `verdict:${a.id}:${at.getTime()}:${createHash('sha256')
      .update(JSON.stringify([revised, decision]))
      .digest('hex')
      .slice(0, 16)}`,
    kind: 'service',
    app: { type: 'expert_review', text: said.notice, data: said.data },
    sms: said.sms,
    email: { subject: message('notifications.reviewSubject'), text: said.notice, link: said.link },
  };
}

/**
 * Writes a first verdict or a revision (undefined when another expert's answer came first) and, with
 * `tell`, the farmer's messages in the same transaction: they exist if and only if the verdict commits.
 */
export function createVerdictWriter(deps: Pick<ModuleDeps, 'delivery' | 'config'>) {
  return (
    expertId: number,
    a: AnalysisResult & { userId: number },
    decision: Decision,
    revised: boolean,
    at: Date,
    /** Tell the farmer; false: the caller tells them itself. */
    tell: boolean,
  ) =>
    deps.delivery.transaction(async (tx, say) => {
      const inTx = createReviewRepo(tx as unknown as Db);
      const written = revised
        ? await inTx.revise(a.id, expertId, decision, at)
        : await inTx.decideFirst(a.id, expertId, decision, at);
      if (written && tell) await say(verdictTell(a, decision, revised, at, deps.config.publicUrl));
      return written;
    });
}

/**
 * What else follows a verdict for the farmer (docs/decisions/0049): the expert's answer becomes theirs, so
 * advice to treat gets its follow-up reminder (the follow-up service's rule), from the verdict's moment `at`.
 */
export function createAnswerFarmer(
  analysis: Pick<AnalysisService, 'facts'>,
  followUps: Pick<FollowUpService, 'expertAnswered'>,
) {
  async function answerFacts(a: AnalysisResult & { userId: number }, decision: Decision, at: Date) {
    const facts = await analysis.facts(a.id);
    return {
      ...facts,
      ...answerOfVerdict(decision.verdict, a.rust_class),
      severity: facts.rustShare,
      // The advice to treat is given at the expert's answer: the reminder counts from there.
      createdAt: at,
    };
  }
  return {
    answer: async (a: AnalysisResult & { userId: number }, decision: Decision, at: Date) =>
      followUps.expertAnswered(await answerFacts(a, decision, at)),
  };
}
