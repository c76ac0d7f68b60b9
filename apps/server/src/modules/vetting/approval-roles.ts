import type { ErrorCode, NotificationType, Role } from '@kutu/contract';
import type { MessageKey } from '../../i18n/i18n.ts';
import type { SmsKey } from '../../i18n/sms-texts.ts';

/**
 * The roles an administrator must approve before the account may act in them (docs/decisions/0093).
 * Every one is checked at every route guarded for it (plugins/auth.ts asks the approval gate), vetted by
 * the one service (applications.service.ts) and stored in `role_applications`. To add one:
 * docs/CONTRIBUTING.md, "A role that needs approval".
 */
export const APPROVAL_ROLES = ['expert', 'officer'] as const satisfies readonly Role[];
export type ApprovalRole = (typeof APPROVAL_ROLES)[number];

/** What the applicant is told of a decision: in the app, by email (subject) and by SMS. */
interface NoticeKeys {
  type: NotificationType;
  subject: MessageKey;
  /** Takes `{ name }`, and `{ reason }` for a refusal or a withdrawal. */
  message: MessageKey;
  sms: SmsKey;
}

export interface ApprovalRoleTexts {
  /** The 403 every guarded route of the role answers a pending or a refused applicant. */
  gate: Record<'pending' | 'refused', readonly [ErrorCode, MessageKey]>;
  /** The administrator's 404 and 409s. */
  errors: Record<'notFound' | 'alreadyApproved' | 'alreadyRefused' | 'changed', MessageKey>;
  notices: { approved: NoticeKeys; refused: NoticeKeys; withdrawn: NoticeKeys };
}

export const APPROVAL_TEXTS: Record<ApprovalRole, ApprovalRoleTexts> = {
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
      approved: {
        type: 'expert_approved',
        subject: 'vetting.approved.subject',
        message: 'vetting.approved.message',
        sms: 'vetting.approved.sms',
      },
      refused: {
        type: 'expert_refused',
        subject: 'vetting.refused.subject',
        message: 'vetting.refused.message',
        sms: 'vetting.refused.sms',
      },
      // No route withdraws an expert yet: a withdrawal reads as a refusal.
      withdrawn: {
        type: 'expert_refused',
        subject: 'vetting.refused.subject',
        message: 'vetting.refused.message',
        sms: 'vetting.refused.sms',
      },
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
      approved: {
        type: 'officer_approved',
        subject: 'officer.approved.subject',
        message: 'officer.approved.message',
        sms: 'officer.approved.sms',
      },
      refused: {
        type: 'officer_refused',
        subject: 'officer.refused.subject',
        message: 'officer.refused.message',
        sms: 'officer.refused.sms',
      },
      withdrawn: {
        type: 'officer_refused',
        subject: 'officer.withdrawn.subject',
        message: 'officer.withdrawn.message',
        sms: 'officer.withdrawn.sms',
      },
    },
  },
};

/** Whether `role` waits for an administrator's approval. */
export const needsApproval = (role: Role): role is ApprovalRole => (APPROVAL_ROLES as readonly Role[]).includes(role);

/** The gate's refusals, by role (app.ts gives them to lib/approval-gate.ts). */
export const GATE_REFUSALS = Object.fromEntries(APPROVAL_ROLES.map((r) => [r, APPROVAL_TEXTS[r].gate])) as Record<
  ApprovalRole,
  ApprovalRoleTexts['gate']
>;
