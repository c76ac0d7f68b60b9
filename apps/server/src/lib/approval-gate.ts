import type { ErrorCode, Role, VettingStatus } from '@kutu/contract';
import type { MessageKey } from '../i18n/i18n.ts';
import { AppError } from './errors.ts';

/** At most this many approvals are remembered per process (oldest-used go first). */
const MAX_REMEMBERED = 10_000;

/**
 * The one server-side check of vetting (docs/decisions/0027, 0093): the auth hook (`guard(…)`) asks it
 * for every request of a role that needs approval, so no route of such a role can forget it. The roles
 * are the keys of `refusals` (modules/vetting/approval-roles.ts). An approval is remembered in this
 * process and costs no query afterwards until `forget()` (every session of the user ended: a
 * withdrawal); any other answer is read from the database each time, so an approval made in another
 * process counts at the applicant's next request.
 */
export function createApprovalGate<R extends Role>(
  statusOf: (userId: number, role: R) => Promise<VettingStatus | null>,
  /** Per role that needs approval: the 403 code and catalogue key for a pending and a refused applicant. */
  refusals: Record<R, Record<'refused' | 'pending', readonly [ErrorCode, MessageKey]>>,
) {
  const approved = new Map<string, true>();

  return {
    /** Whether callers of `role` must have been approved. */
    needs: (role: Role): role is R => Object.hasOwn(refusals, role),
    /** Throws the role's coded 403 unless `userId` has been approved in `role`. */
    async assertApproved(userId: number, role: R): Promise<void> {
      const key = `${role}:${userId}`;
      if (approved.has(key)) {
        approved.delete(key);
        approved.set(key, true);
        return;
      }
      const status = await statusOf(userId, role);
      if (status === 'approved') {
        if (approved.size >= MAX_REMEMBERED) approved.delete(approved.keys().next().value as string);
        approved.set(key, true);
        return;
      }
      const [code, message] = status === 'refused' ? refusals[role].refused : refusals[role].pending;
      throw new AppError(code, message, 403);
    },
    /** Forgets a user's approvals: the next request reads the status again (an approval withdrawn). */
    forget(userId: number) {
      for (const role of Object.keys(refusals)) approved.delete(`${role}:${userId}`);
    },
  };
}
export type ApprovalGate = ReturnType<typeof createApprovalGate<Role>>;
