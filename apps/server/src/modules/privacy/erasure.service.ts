import type { DeleteAccountBody, ErasureEntry, PageQuery, Paginated } from '@kutu/contract';
import type { ModuleDeps } from '../../deps.ts';
import { message } from '../../i18n/i18n.ts';
import { smsText } from '../../i18n/sms-texts.ts';
import { AppError, badRequest, forbidden, tooMany } from '../../lib/errors.ts';
import { pageWindow, toPage } from '../../lib/pagination.ts';
import { CODE_TTL_MS, codeProblem, newCode, RESEND_GAP_MS, wrongCodeMessage } from '../auth/codes.ts';
import { hashSecret, verifySecret } from '../auth/passwords.ts';
import { createErasureRepo } from './erasure.repo.ts';

export interface ErasureLog {
  error(obj: object, msg: string): void;
  info?(obj: object, msg: string): void;
}

/**
 * Deleting one's account (docs/decisions/0067-consent-and-erasure.md): confirmed by the password, or by a
 * code sent by SMS (an account without a password, or the DELETE keyword); then the account, its photos
 * (in storage too) and sessions go, and the erasure is logged without anything of the person.
 */
export function createErasureService(
  deps: Pick<ModuleDeps, 'db' | 'clock' | 'sms' | 'storage' | 'coordinator'>,
  log: ErasureLog,
) {
  const repo = createErasureRepo(deps.db);
  const { clock } = deps;

  async function account(userId: number) {
    const user = await repo.findUser(userId);
    if (!user) throw new AppError('UNAUTHENTICATED', 'errors.session.invalid', 401);
    if (user.role === 'admin') throw forbidden('errors.privacy.adminCannot');
    return user;
  }

  /** A fresh deletion code for the account, by SMS; at most one a minute. */
  async function sendCode(userId: number): Promise<void> {
    const user = await account(userId);
    const now = clock.now();
    const last = await repo.code(userId);
    if (last && last.expiresAt.getTime() - CODE_TTL_MS + RESEND_GAP_MS > now.getTime()) {
      throw tooMany(message('errors.auth.waitBeforeResend', { seconds: RESEND_GAP_MS / 1000 }), RESEND_GAP_MS / 1000);
    }
    const code = newCode();
    await repo.saveCode(userId, await hashSecret(code), new Date(now.getTime() + CODE_TTL_MS));
    try {
      await deps.sms.send(user.phone, smsText(user.language, 'smsIn.deleteCode', { code }));
    } catch (err) {
      log.error({ err }, 'could not send the account deletion code');
      throw new AppError('SERVICE_UNAVAILABLE', 'errors.auth.smsFailed', 503);
    }
  }

  /** Throws unless `code` is the account's live deletion code. */
  async function checkCode(userId: number, code: string) {
    const stored = await repo.code(userId);
    const now = clock.now();
    const problem = codeProblem(stored && { ...stored, consumedAt: null, invalidated: false }, now);
    if (problem || !stored)
      throw badRequest(problem ?? 'errors.auth.noActiveCode', { code: problem ?? 'errors.auth.noActiveCode' });
    if (!(await verifySecret(stored.codeHash, code))) {
      await repo.wrongCode(userId);
      const wrong = wrongCodeMessage(stored.attempts + 1);
      throw badRequest(wrong, { code: wrong });
    }
  }

  async function erase(userId: number, via: 'web' | 'sms') {
    const done = await repo.erase(userId, via, clock.now());
    if (!done) throw forbidden('errors.privacy.adminCannot');
    // After the commit: the files go (a failure is logged; the orphan sweep would find them too).
    for (const key of done.keys) {
      await deps.storage.remove(key).catch((err) => log.error({ err, key }, 'could not remove an erased photo'));
    }
    await deps.coordinator.publish({ type: 'session-revoked', userId }).catch(() => {});
    log.info?.({ role: done.role, via, counts: done.counts }, 'account erased');
    return done;
  }

  return {
    sendCode,

    /** The web's "delete my account": the password, or the SMS code for an account without one. */
    async deleteAccount(userId: number, body: DeleteAccountBody) {
      const user = await account(userId);
      if (body.password) {
        const ok = user.passwordHash !== null && (await verifySecret(user.passwordHash, body.password));
        if (!ok) throw badRequest('errors.auth.wrongCurrentPassword', { password: 'errors.auth.wrongCurrentPassword' });
      } else await checkCode(userId, body.code ?? '');
      await erase(userId, 'web');
      return { message: message('success.privacy.deleted') };
    },

    /**
     * The DELETE keyword by SMS: without a code, Kutu answers with one; `DELETE <code>` erases. The
     * reply text is returned for the caller to send (the account is gone by then).
     */
    async bySms(userId: number, code: string | null): Promise<'codeSent' | 'erased' | 'wrongCode'> {
      if (code === null) {
        await sendCode(userId).catch((err) => {
          if (!(err instanceof AppError && err.status === 429)) throw err;
        });
        return 'codeSent';
      }
      try {
        await checkCode(userId, code);
      } catch (err) {
        if (err instanceof AppError && err.status === 400) return 'wrongCode';
        throw err;
      }
      await erase(userId, 'sms');
      return 'erased';
    },

    /** The erasure log, newest first, a page at a time. */
    async erasures(query: PageQuery): Promise<Paginated<ErasureEntry>> {
      const { rows, total } = await repo.erasures(pageWindow(query));
      const entries = rows.map((r) => ({
        id: r.id,
        at: r.at.toISOString(),
        role: r.role,
        requested_via: r.requestedVia,
        counts: r.counts,
      }));
      return toPage(entries, total, query);
    },
  };
}

export type ErasureService = ReturnType<typeof createErasureService>;
