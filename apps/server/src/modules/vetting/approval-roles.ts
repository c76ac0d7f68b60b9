import { type ApprovalRole, approvalRoles, type ErrorCode, type NotificationType } from '@kutu/contract';
import type { MessageKey } from '../../i18n/i18n.ts';
import type { SmsKey } from '../../i18n/sms-texts.ts';

/** What the applicant is told of a decision: in the app, by email (subject) and by SMS. */
interface NoticeKeys {
  type: NotificationType;
  subject: MessageKey;
  /** Takes `{ name }`, and `{ reason }` for a refusal or a withdrawal. */
  message: MessageKey;
  sms: SmsKey;
}

/** A notice's keys from its catalogue prefix: `vetting.approved.subject`, `….message`, `….sms`. */
const notice = <const P extends string, const O extends string>(type: NotificationType, prefix: P, outcome: O) =>
  ({
    type,
    subject: `${prefix}.${outcome}.subject`,
    message: `${prefix}.${outcome}.message`,
    sms: `${prefix}.${outcome}.sms`,
  }) as const;

export interface ApprovalRoleSpec {
  /** The 403 every guarded route of the role answers a pending or a refused applicant. */
  gate: Record<'pending' | 'refused', readonly [ErrorCode, MessageKey]>;
  /** The administrator's 404 and 409s. */
  errors: Record<'notFound' | 'alreadyApproved' | 'alreadyRefused' | 'changed', MessageKey>;
  notices: { approved: NoticeKeys; refused: NoticeKeys; withdrawn: NoticeKeys };
}

/**
 * What each role the contract's `approvalRoles` lists (docs/decisions/0093) needs of the vetting: the
 * gate's refusals, the administrator's errors and the applicant's notices. The gate
 * (lib/approval-gate.ts) checks every one at every route guarded for it; the one service
 * (applications.service.ts) decides; `role_applications` stores. To add one: docs/running.md,
 * "Adding a role that needs approval".
 */
export const APPROVAL: Record<ApprovalRole, ApprovalRoleSpec> = {
  expert: {
    gate: {
      pending: ['EXPERT_PENDING', 'errors.vetting.pending'],
      refused: ['EXPERT_REFUSED', 'errors.vetting.refused'],
    },
    errors: {
      notFound: 'errors.vetting.notFound',
      alreadyApproved: 'errors.vetting.alreadyApproved',
      alreadyRefused: 'errors.vetting.alreadyRefused',
      changed: 'errors.vetting.changed',
    },
    notices: {
      approved: notice('expert_approved', 'vetting', 'approved'),
      refused: notice('expert_refused', 'vetting', 'refused'),
      // An expert's withdrawal reads as a refusal (the reason says why).
      withdrawn: notice('expert_refused', 'vetting', 'refused'),
    },
  },
  officer: {
    gate: {
      pending: ['OFFICER_PENDING', 'errors.officer.pending'],
      refused: ['OFFICER_REFUSED', 'errors.officer.refused'],
    },
    errors: {
      notFound: 'errors.officer.notFound',
      alreadyApproved: 'errors.officer.alreadyApproved',
      alreadyRefused: 'errors.officer.alreadyRefused',
      changed: 'errors.officer.changed',
    },
    notices: {
      approved: notice('officer_approved', 'officer', 'approved'),
      refused: notice('officer_refused', 'officer', 'refused'),
      withdrawn: notice('officer_refused', 'officer', 'withdrawn'),
    },
  },
};

/** The gate's refusals, by role (app.ts gives them to lib/approval-gate.ts). */
export const GATE_REFUSALS = Object.fromEntries(approvalRoles.map((r) => [r, APPROVAL[r].gate])) as Record<
  ApprovalRole,
  ApprovalRoleSpec['gate']
>;
