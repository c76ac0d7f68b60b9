import type { z } from 'zod';
import type { ExpertApplication, ExpertApplicationPage, expertApplicationsQuery } from '@kutu/contract';
import type { ModuleDeps } from '../../deps.ts';
import { message } from '../../i18n/i18n.ts';
import { smsMessage } from '../../i18n/sms-texts.ts';
import { conflict, notFound } from '../../lib/errors.ts';
import { pageWindow, toPage } from '../../lib/pagination.ts';
import { type ApplicationRow, createVettingRepo } from './vetting.repo.ts';
import { type Decision, decideAndTell, type Notice } from './decide-and-tell.ts';

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
  const { clock } = deps;

  const decide = (input: Decision, notice: (row: ApplicationRow) => Notice) =>
    decideAndTell(deps, createVettingRepo, input, notice);

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
      const ok = await decide({ userId, from: [from], to: 'approved', reason: null, adminId, now }, (row) => ({
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
      const ok = await decide({ userId, from: ['pending'], to: 'refused', reason, adminId, now }, (row) => ({
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
