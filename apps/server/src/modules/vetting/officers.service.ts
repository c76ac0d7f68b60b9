import type { z } from 'zod';
import {
  districtByCode,
  type OfficerApplication,
  type OfficerApplicationPage,
  type OfficerMeReply,
  type officerApplicationsQuery,
} from '@kutu/contract';
import type { ModuleDeps } from '../../deps.ts';
import { message } from '../../i18n/i18n.ts';
import { smsMessage } from '../../i18n/sms-texts.ts';
import { conflict, forbidden, notFound } from '../../lib/errors.ts';
import { pageWindow, toPage } from '../../lib/pagination.ts';
import { type Decision, decideAndTell } from './decide-and-tell.ts';
import { createOfficerVettingRepo, type OfficerApplicationRow } from './officers.repo.ts';

type Query = z.output<typeof officerApplicationsQuery>;

/** The shipped districts among these codes, with their names. */
const named = (codes: string[]) =>
  codes.flatMap((code) => {
    const d = districtByCode(code);
    return d ? [{ code, name: d.name, country: d.country }] : [];
  });

function toApplication(row: OfficerApplicationRow): OfficerApplication {
  const p = row.profile;
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    phone: row.phone,
    language: row.language,
    office: p.office,
    districts: named(p.districts),
    applied_at: p.appliedAt.toISOString(),
    status: p.vettingStatus,
    reason: p.vettingReason,
    decided_at: p.vettedAt?.toISOString() ?? null,
    decided_by: row.decidedBy,
  };
}

/**
 * Administrators approve or refuse extension officers as they do experts (docs/decisions/0027); the
 * applicant is told in their language (app, SMS, email). An approved officer's districts are the ones
 * they applied for, and the one thing every extension route asks (`districtsOf`).
 */
export function createOfficerVettingService(
  deps: Pick<ModuleDeps, 'db' | 'clock' | 'delivery' | 'config'>,
  accounts: { endAllSessions(userId: number): Promise<void> },
) {
  const repo = createOfficerVettingRepo(deps.db);

  const decide = async (input: Decision, refused: 'refused' | 'withdrawn' | false, reason = '') => {
    const ok = await decideAndTell(deps, createOfficerVettingRepo, input, (row) =>
      refused
        ? {
            type: 'officer_refused',
            subject: message(`officer.${refused}.subject`),
            text: message(`officer.${refused}.message`, { name: row.username, reason }),
            sms: smsMessage(`officer.${refused}.sms`, { reason }),
          }
        : {
            type: 'officer_approved',
            subject: message('officer.approved.subject'),
            text: message('officer.approved.message', { name: row.username }),
            sms: smsMessage('officer.approved.sms'),
          },
    );
    const row = await repo.find(input.userId);
    if (!row) throw notFound('errors.officer.notFound');
    if (!ok) {
      const status = row.profile.vettingStatus;
      throw conflict(
        status === 'approved'
          ? 'errors.officer.alreadyApproved'
          : status === 'refused'
            ? 'errors.officer.alreadyRefused'
            : 'errors.officer.changed',
      );
    }
    return toApplication(row);
  };

  return {
    async list(query: Query): Promise<OfficerApplicationPage> {
      const { rows, total, pending } = await repo.list(pageWindow(query), query.status);
      return { ...toPage(rows.map(toApplication), total, query), pending_count: pending };
    },

    approve: (adminId: number, userId: number, from: 'pending' | 'refused') =>
      decide({ userId, from: [from], to: 'approved', reason: null, adminId, now: deps.clock.now() }, false),

    refuse: (adminId: number, userId: number, reason: string) =>
      decide({ userId, from: ['pending'], to: 'refused', reason, adminId, now: deps.clock.now() }, 'refused', reason),

    /**
     * Withdraws an approved officer (they left the office): refused with the reason, told, and signed out
     * everywhere at once, so that no open screen keeps showing farmers' numbers.
     */
    async withdraw(adminId: number, userId: number, reason: string) {
      const now = deps.clock.now();
      const done = await decide(
        { userId, from: ['approved'], to: 'refused', reason, adminId, now },
        'withdrawn',
        reason,
      );
      await accounts.endAllSessions(userId);
      return done;
    },

    /** The caller's own application: what they wait for, or their districts. */
    async me(userId: number): Promise<OfficerMeReply> {
      const row = await repo.find(userId);
      if (!row) throw forbidden('errors.officer.notOfficer');
      return {
        status: row.profile.vettingStatus,
        reason: row.profile.vettingReason,
        office: row.profile.office,
        districts: named(row.profile.districts),
      };
    },

    /** An approved officer's districts (the route's role check already asked the gate). */
    async districtsOf(userId: number): Promise<string[]> {
      const row = await repo.find(userId);
      return row?.profile.vettingStatus === 'approved' ? row.profile.districts : [];
    },

    /** The approved officers of a district, for the Monday report. */
    officersOf: (district: string) => repo.officersOf(district),
    /** Every district some approved officer holds. */
    approvedDistricts: () => repo.approvedDistricts(),
  };
}
export type OfficerVettingService = ReturnType<typeof createOfficerVettingService>;
