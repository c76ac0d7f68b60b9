import type { z } from 'zod';
import type { ExpertApplication, ExpertApplicationPage, expertApplicationsQuery, Language } from '@kutu/contract';
import type { ModuleDeps } from '../../deps.ts';
import { type Message, message, render, t } from '../../i18n/i18n.ts';
import { cutText } from '../../lib/cut-text.ts';
import { smsStopped } from '../../lib/sms-stop.ts';
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
 * their own language: in the app (the record), by SMS and by email when the account has one. A failed
 * SMS or email does not undo the decision, which is already committed.
 */
export function createVettingService(
  deps: Pick<ModuleDeps, 'db' | 'clock' | 'notifications' | 'mailer' | 'sms' | 'config'>,
) {
  const repo = createVettingRepo(deps.db);
  const { notifications, mailer, sms, config, clock } = deps;

  async function tell(
    row: ApplicationRow,
    notice: { type: 'expert_approved' | 'expert_refused'; text: Message; sms: Message; subject: Message },
  ) {
    await notifications.notify(row.id, notice.type, notice.text, { expert_id: row.id });
    const language: Language = row.language;
    const link = `${config.publicUrl}/account`;
    // Only to a number or an address the applicant proved is theirs (a sign-up may never have verified it).
    const smsOk = row.phoneVerified && !(await smsStopped(deps.db, row.phone));
    await Promise.allSettled([
      smsOk ? sms.send(row.phone, cutText(render(language, notice.sms), 160)) : Promise.resolve(),
      row.email && row.emailVerified
        ? mailer.send({
            to: row.email,
            subject: render(language, notice.subject),
            text: `${render(language, notice.text)}\n\n${t(language, 'vetting.seeInKutu', { link })}`,
          })
        : Promise.resolve(),
    ]);
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
      // Only from the state the administrator saw: a refusal and an approval racing, one of them gets 409.
      const ok = await repo.decide({
        userId,
        from: [from],
        to: 'approved',
        reason: null,
        adminId,
        now: clock.now(),
      });
      if (!ok) {
        const row = await repo.find(userId);
        if (!row) throw notFound('errors.vetting.notFound');
        throw conflict(conflictKey(row.profile.vettingStatus));
      }
      const row = (await repo.find(userId))!;
      await tell(row, {
        type: 'expert_approved',
        subject: message('vetting.approved.subject'),
        text: message('vetting.approved.message', { name: row.username }),
        sms: message('vetting.approved.sms'),
      });
      return decided(userId);
    },

    async refuse(adminId: number, userId: number, reason: string): Promise<ExpertApplication> {
      const ok = await repo.decide({ userId, from: ['pending'], to: 'refused', reason, adminId, now: clock.now() });
      if (!ok) {
        const row = await repo.find(userId);
        if (!row) throw notFound('errors.vetting.notFound');
        throw conflict(
          row.profile.vettingStatus === 'approved' ? 'errors.vetting.alreadyApproved' : 'errors.vetting.alreadyRefused',
        );
      }
      const row = (await repo.find(userId))!;
      await tell(row, {
        type: 'expert_refused',
        subject: message('vetting.refused.subject'),
        text: message('vetting.refused.message', { name: row.username, reason }),
        sms: message('vetting.refused.sms', { reason }),
      });
      return decided(userId);
    },
  };
}
export type VettingService = ReturnType<typeof createVettingService>;
