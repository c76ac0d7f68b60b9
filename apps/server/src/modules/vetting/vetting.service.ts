import type { z } from 'zod';
import type { ExpertApplication, ExpertApplicationPage, expertApplicationsQuery } from '@kutu/contract';
import type { ModuleDeps } from '../../deps.ts';
import type { Db } from '../../db/client.ts';
import { type Message, message } from '../../i18n/i18n.ts';
import { type SmsMessage, smsMessage } from '../../i18n/sms-texts.ts';
import { conflict, notFound } from '../../lib/errors.ts';
import { pageWindow, toPage } from '../../lib/pagination.ts';
import { type ApplicationRow, createVettingRepo } from './vetting.repo.ts';

type Query = z.output<typeof expertApplicationsQuery>;

const conflictKey = (status: string) =>
  status === 'approved'
    ? 'errors.vetting.alreadyApproved'
    : status === 'refused'
      ? 'errors.vetting.alreadyRefused'
      : 'errors.vetting.changed';

function toApplication(row: ApplicationRow): ExpertApplication {
  const p = row.profile;
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    phone: row.phone,
    language: row.language,
    applied_at: p.appliedAt.toISOString(),
    status: p.vettingStatus,
    reason: p.vettingReason,
    decided_at: p.vettedAt?.toISOString() ?? null,
    decided_by: row.decidedBy,
    expert: {
      areas_of_expertise: p.areasOfExpertise,
      certifications: p.certifications,
      bio: p.bio,
      experience_years: p.experienceYears,
      institution: p.institution,
      languages_spoken: p.languagesSpoken,
      social_links: p.socialLinks,
    },
  };
}

/**
 * Administrators approve or refuse expert accounts (docs/decisions/0027). The applicant is told in
 * their own language: in the app (the record), by SMS and by email when the account has one.
 */
export function createVettingService(deps: Pick<ModuleDeps, 'db' | 'clock' | 'delivery' | 'config'>) {
  const repo = createVettingRepo(deps.db);
  const { delivery, config, clock } = deps;

  type Notice = { type: 'expert_approved' | 'expert_refused'; text: Message; sms: SmsMessage; subject: Message };

  /**
   * Records the decision and tells the applicant in one transaction (docs/decisions/0050): the messages
   * exist if and only if the decision commits. False when the application was not in one of `from`.
   */
  function decideAndTell(input: Parameters<typeof repo.decide>[0], notice: (row: ApplicationRow) => Notice) {
    return delivery.transaction(async (tx, tell) => {
      const inTx = createVettingRepo(tx as unknown as Db);
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
          ? { subject: n.subject, text: n.text, link: `${config.publicUrl}/account` }
          : undefined,
      });
      return true;
    });
  }

  async function decided(userId: number): Promise<ExpertApplication> {
    const row = await repo.find(userId);
    if (!row) throw notFound('errors.vetting.notFound');
    return toApplication(row);
  }

  return {
    async list(query: Query): Promise<ExpertApplicationPage> {
      const { rows, total, pending } = await repo.list(pageWindow(query), query.status);
      return { ...toPage(rows.map(toApplication), total, query), pending_count: pending };
    },

    async approve(adminId: number, userId: number, from: 'pending' | 'refused'): Promise<ExpertApplication> {
      const now = clock.now();
      // Only from the state the administrator saw: a refusal and an approval racing, one of them gets 409.
      const ok = await decideAndTell({ userId, from: [from], to: 'approved', reason: null, adminId, now }, (row) => ({
        type: 'expert_approved',
        subject: message('vetting.approved.subject'),
        text: message('vetting.approved.message', { name: row.username }),
        sms: smsMessage('vetting.approved.sms'),
      }));
      if (!ok) {
        const row = await repo.find(userId);
        if (!row) throw notFound('errors.vetting.notFound');
        throw conflict(conflictKey(row.profile.vettingStatus));
      }
      return decided(userId);
    },

    async refuse(adminId: number, userId: number, reason: string): Promise<ExpertApplication> {
      const now = clock.now();
      const ok = await decideAndTell({ userId, from: ['pending'], to: 'refused', reason, adminId, now }, (row) => ({
        type: 'expert_refused',
        subject: message('vetting.refused.subject'),
        text: message('vetting.refused.message', { name: row.username, reason }),
        sms: smsMessage('vetting.refused.sms', { reason }),
      }));
      if (!ok) {
        const row = await repo.find(userId);
        if (!row) throw notFound('errors.vetting.notFound');
        throw conflict(
          row.profile.vettingStatus === 'approved' ? 'errors.vetting.alreadyApproved' : 'errors.vetting.alreadyRefused',
        );
      }
      return decided(userId);
    },
  };
}
