import type { VettingStatus } from '@kutu/contract';
import type { ModuleDeps } from '../../deps.ts';
import type { Db } from '../../db/client.ts';
import type { Message } from '../../i18n/i18n.ts';
import type { SmsMessage } from '../../i18n/sms-texts.ts';

export interface Decision {
  userId: number;
  from: VettingStatus[];
  to: VettingStatus;
  reason: string | null;
  adminId: number;
  now: Date;
}

/** What an applicant is told of a decision: in the app, by SMS and by email. */
export interface Notice {
  type: 'expert_approved' | 'expert_refused' | 'officer_approved' | 'officer_refused';
  text: Message;
  sms: SmsMessage;
  subject: Message;
}

interface Applicant {
  id: number;
  username: string;
  phoneVerified: boolean;
  emailVerified: boolean;
}

/**
 * Records a vetting decision (an expert's or an extension officer's) and tells the applicant in one
 * transaction (docs/decisions/0050): the messages exist if and only if the decision commits. False
 * when the application was not in one of `from` (two administrators deciding at once).
 */
export function decideAndTell<R extends Applicant>(
  deps: Pick<ModuleDeps, 'delivery' | 'config'>,
  repoIn: (db: Db) => { decide(input: Decision): Promise<boolean>; find(userId: number): Promise<R | undefined> },
  input: Decision,
  notice: (row: R) => Notice,
) {
  return deps.delivery.transaction(async (tx, tell) => {
    const inTx = repoIn(tx as unknown as Db);
    if (!(await inTx.decide(input))) return false;
    const row = (await inTx.find(input.userId))!;
    const n = notice(row);
    await tell({
      to: row.id,
      // Each decision is its own message (an approval after a refusal too).
      key: `vetting:${n.type}:${input.now.getTime()}`,
      kind: 'service',
      app: { type: n.type, text: n.text, data: { expert_id: row.id } },
      // Only to a number or an address the applicant proved is theirs (a sign-up may never have verified it).
      sms: row.phoneVerified ? n.sms : undefined,
      email: row.emailVerified
        ? { subject: n.subject, text: n.text, link: `${deps.config.publicUrl}/account` }
        : undefined,
    });
    return true;
  });
}
