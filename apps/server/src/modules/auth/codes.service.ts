import type { ModuleDeps } from '../../deps.ts';
import { type Message, message } from '../../i18n/i18n.ts';
import { badRequest } from '../../lib/errors.ts';
import { type CodePurpose, createCodesRepo } from './codes.repo.ts';
import {
  CODE_TTL_MS,
  codeProblem,
  dayProblem,
  newCode,
  RESEND_WINDOW_MS,
  resendProblem,
  TRIES_WINDOW_MS,
  wrongTryMessage,
} from './codes.ts';
import { hashSecret, verifySecret } from './passwords.ts';

/**
 * Every 4-digit code (sign-up, activation, password reset, an added email, deleting the account): sent at
 * most once a minute and five times an hour, each try counted before it is judged, at most
 * CODE_MAX_ATTEMPTS tries a code and WRONG_TRIES_PER_DAY wrong ones a day (codes.ts, docs/decisions/0079).
 * Built once (services.ts) for the auth services and the privacy module's erasure.
 */
export function createCodeService(deps: Pick<ModuleDeps, 'db' | 'clock'>) {
  const repo = createCodesRepo(deps.db);
  const { clock } = deps;

  async function fresh(now: Date) {
    const code = newCode();
    return { code, stored: { codeHash: await hashSecret(code), expiresAt: new Date(now.getTime() + CODE_TTL_MS) } };
  }

  return {
    /** A new code and its stored form (hash, expiry), for a flow that writes it in its own transaction. */
    fresh,

    /** Replaces the account's code of `purpose` with a new one, unless asked too soon or too often. */
    async replace(userId: number, purpose: CodePurpose): Promise<{ code: string } | { problem: Message }> {
      const now = clock.now();
      const { code, stored } = await fresh(now);
      const problem = await repo.replaceCode(
        { userId, purpose, code: stored, now, since: new Date(now.getTime() - RESEND_WINDOW_MS) },
        (sentAt) => resendProblem(sentAt, now),
      );
      return problem ? { problem } : { code };
    },

    /**
     * Throws a 400 (the reason under `field`) unless `code` is the account's live code of `purpose`; the
     * try is counted before the code is judged. Returns the code's id (the flow then uses it up).
     */
    async check(userId: number, purpose: CodePurpose, code: string, field: string): Promise<number> {
      const now = clock.now();
      const claim = await repo.claimTry(
        { userId, purpose, since: new Date(now.getTime() - TRIES_WINDOW_MS) },
        (stored, day) => codeProblem(stored, now) ?? dayProblem(day, now),
      );
      if ('problem' in claim) {
        throw badRequest(claim.problem ?? 'errors.auth.noActiveCode', {
          [field]: claim.problem ?? message('errors.auth.noActiveCode'),
        });
      }
      if (!(await verifySecret(claim.code.codeHash, code))) {
        const wrong = wrongTryMessage(claim.code.attempts, claim.day, now);
        throw badRequest(wrong, { [field]: wrong });
      }
      return claim.code.id;
    },
  };
}

export type CodeService = ReturnType<typeof createCodeService>;
