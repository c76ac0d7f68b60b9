import type { z } from 'zod';
import type { ApprovalRole, OfficerMeReply, pageQuery, VettingStatus } from '@kutu/contract';
import type { ModuleDeps } from '../../deps.ts';
import type { Db, Tx } from '../../db/client.ts';
import { message } from '../../i18n/i18n.ts';
import { smsMessage } from '../../i18n/sms-texts.ts';
import { conflict, forbidden, notFound } from '../../lib/errors.ts';
import { pageWindow, toPage } from '../../lib/pagination.ts';
import { APPLICATION_VIEWS, namedDistricts } from './application-views.ts';
import { type ApplicationRow, createApplicationsRepo, type Decision, type OfficerFacts } from './applications.repo.ts';
import { APPROVAL } from './approval-roles.ts';

/** "Approved in the role", as a condition of another module's query (which experts an alert tells). */
export { approvedSql } from './applications.repo.ts';
/** "An approved expert or officer of the district", as a condition of another module's query. */
export { districtStaffSql } from './applications.repo.ts';

/**
 * The applications as other modules keep and show them, over the database alone: auth writes a new
 * applicant's application with the account and shows an expert theirs. Apart from the administrators'
 * decisions (createApplicationsService), which sign a withdrawn person out through auth, so that
 * services.ts builds this before auth and that after it.
 */
export function createApplicationRecords(db: Db) {
  const repo = createApplicationsRepo(db);
  return {
    /**
     * A new applicant waits for an administrator: written in `runner`, the sign-up's transaction, with an
     * officer's office and districts.
     */
    open: (userId: number, role: ApprovalRole, now: Date, runner: Db | Tx, officer?: OfficerFacts) =>
      createApplicationsRepo(runner as Db).open(userId, role, now, officer),
    /** The user's application in `role` (status, reason, when decided); undefined when none. */
    of: (userId: number, role: ApprovalRole) => repo.decisionOf(userId, role),
  };
}

type Query = z.output<typeof pageQuery> & { status?: VettingStatus };
type Outcome = 'approved' | 'refused' | 'withdrawn';

/**
 * Administrators approve, refuse or withdraw an application for any role that needs approval
 * (docs/decisions/0027, 0093); the applicant is told in their language (app, SMS, email). Whether a
 * caller is approved is asked by the gate at every guarded route (lib/approval-gate.ts), not here.
 */
export function createApplicationsService(
  deps: Pick<ModuleDeps, 'db' | 'clock' | 'delivery' | 'config'>,
  accounts: { endAllSessions(userId: number): Promise<void> },
) {
  const repo = createApplicationsRepo(deps.db);

  /**
   * Records the decision and tells the applicant in one transaction (docs/decisions/0050): the messages
   * exist if and only if the decision commits. False when the application was not in one of `from`.
   */
  const decideAndTell = (input: Decision, outcome: Outcome) =>
    deps.delivery.transaction(async (tx, tell) => {
      const inTx = createApplicationsRepo(tx as unknown as Db);
      if (!(await inTx.decide(input))) return false;
      const row = (await inTx.find(input.userId, input.role))!;
      const keys = APPROVAL[input.role].notices[outcome];
      const params = { name: row.username, ...(input.reason !== null && { reason: input.reason }) };
      const text = message(keys.message, params);
      await tell({
        to: row.id,
        // Each decision is its own message (an approval after a refusal too).
        key: `vetting:${keys.type}:${input.now.getTime()}`,
        kind: 'service',
        app: { type: keys.type, text, data: { expert_id: row.id } },
        // Only to a number or an address the applicant proved is theirs (a sign-up may never have verified it).
        sms: row.phoneVerified
          ? smsMessage(keys.sms, input.reason === null ? undefined : { reason: input.reason })
          : undefined,
        email: row.emailVerified
          ? { subject: message(keys.subject), text, link: `${deps.config.publicUrl}/account` }
          : undefined,
      });
      return true;
    });

  async function decide<R extends ApprovalRole>(input: Decision & { role: R }, outcome: Outcome) {
    const ok = await decideAndTell(input, outcome);
    const row = await repo.find(input.userId, input.role);
    const errors = APPROVAL[input.role].errors;
    if (!row) throw notFound(errors.notFound);
    if (!ok) {
      const status = row.application.status;
      throw conflict(
        status === 'approved' ? errors.alreadyApproved : status === 'refused' ? errors.alreadyRefused : errors.changed,
      );
    }
    return view(input.role, row);
  }

  const view = (role: ApprovalRole, row: ApplicationRow) => APPLICATION_VIEWS[role](row);

  return {
    /** One role's applications, a page at a time, with how many wait. */
    async list<R extends ApprovalRole>(role: R, query: Query) {
      const { rows, total, pending } = await repo.list(role, pageWindow(query), query.status);
      return {
        ...toPage(
          rows.map((row) => view(role, row)),
          total,
          query,
        ),
        pending_count: pending,
      };
    },

    /** Only from the state the administrator saw: a refusal and an approval racing, one of them gets 409. */
    approve: <R extends ApprovalRole>(role: R, adminId: number, userId: number, from: 'pending' | 'refused') =>
      decide({ role, userId, from: [from], to: 'approved', reason: null, adminId, now: deps.clock.now() }, 'approved'),

    refuse: <R extends ApprovalRole>(role: R, adminId: number, userId: number, reason: string) =>
      decide({ role, userId, from: ['pending'], to: 'refused', reason, adminId, now: deps.clock.now() }, 'refused'),

    /**
     * Withdraws an approval (an officer left the office): refused with the reason, told, and signed out
     * everywhere at once, so that no open screen keeps showing what only the role may see.
     */
    async withdraw<R extends ApprovalRole>(role: R, adminId: number, userId: number, reason: string) {
      const now = deps.clock.now();
      const done = await decide({ role, userId, from: ['approved'], to: 'refused', reason, adminId, now }, 'withdrawn');
      await accounts.endAllSessions(userId);
      return done;
    },

    /** An officer's own application: what they wait for, or their districts. */
    async officerMe(userId: number): Promise<OfficerMeReply> {
      const row = await repo.find(userId, 'officer');
      if (!row?.officer) throw forbidden('errors.officer.notOfficer');
      return {
        status: row.application.status,
        reason: row.application.reason,
        office: row.officer.office,
        districts: namedDistricts(row.officer.districts),
        national: row.application.status === 'approved' && row.officer.national,
      };
    },

    /** An approved officer's districts (the route's role check already asked the gate). */
    async districtsOf(userId: number): Promise<string[]> {
      const row = await repo.find(userId, 'officer');
      return row?.application.status === 'approved' ? (row.officer?.districts ?? []) : [];
    },

    /**
     * Grants or takes back an approved officer's national scope (docs/decisions/0122): the national bulletin,
     * its CSV, PDF and Monday email. 404 when they never applied as an officer, 409 unless approved.
     */
    async setNational(adminId: number, userId: number, national: boolean) {
      const row = await repo.find(userId, 'officer');
      if (!row?.officer) throw notFound(APPROVAL.officer.errors.notFound);
      if (!(await repo.setNational(userId, national, adminId, deps.clock.now())))
        throw conflict('errors.officer.nationalNotApproved');
      return view('officer', (await repo.find(userId, 'officer'))!);
    },

    /** Whether the user is an approved national officer now (the bulletin's check for an officer). */
    isNationalOfficer: async (userId: number) => (await repo.nationalOfficers(userId)).length > 0,
    /** Approved national officers with an active account, for the Monday bulletin. */
    nationalOfficers: () => repo.nationalOfficers(),

    /** The approved officers of a district, for the Monday report. */
    officersOf: (district: string) => repo.officersOf(district),
    /** Every district some approved officer holds. */
    approvedDistricts: () => repo.approvedDistricts(),
  };
}
export type ApplicationsService = ReturnType<typeof createApplicationsService>;
