import type { ErrorCode, VettingStatus } from '@kutu/contract';
import type { MessageKey } from '../i18n/i18n.ts';
import { AppError } from './errors.ts';

/** At most this many approved experts are remembered per process (oldest-used go first). */
const MAX_REMEMBERED = 10_000;

/**
 * The one server-side check of expert vetting (docs/decisions/0027): the auth hook (`guard(…)`) asks it for every
 * request of an expert, so no expert-only route can forget it. An approval is final, so "approved" is
 * remembered in this process and costs no query afterwards; any other answer is read from the database
 * each time, so an approval made in another process counts at the applicant's next request.
 */
export function createExpertGate(
  statusOf: (userId: number) => Promise<VettingStatus | null>,
  /** The 403 codes and catalogue keys: an expert's by default; extension officers have their own. */
  refusals: Record<'refused' | 'pending', readonly [ErrorCode, MessageKey]> = {
    refused: ['EXPERT_REFUSED', 'errors.vetting.refused'],
    pending: ['EXPERT_PENDING', 'errors.vetting.pending'],
  },
) {
  const approved = new Map<number, true>();

  return {
    /** Throws the coded 403 unless the expert `userId` has been approved. */
    async assertApproved(userId: number): Promise<void> {
      if (approved.has(userId)) {
        approved.delete(userId);
        approved.set(userId, true);
        return;
      }
      const status = await statusOf(userId);
      if (status === 'approved') {
        if (approved.size >= MAX_REMEMBERED) approved.delete(approved.keys().next().value as number);
        approved.set(userId, true);
        return;
      }
      const [code, key] = status === 'refused' ? refusals.refused : refusals.pending;
      throw new AppError(code, key, 403);
    },
    /** Forgets an approval: the next request reads the status again (an approval withdrawn). */
    forget(userId: number) {
      approved.delete(userId);
    },
  };
}
export type ExpertGate = ReturnType<typeof createExpertGate>;
