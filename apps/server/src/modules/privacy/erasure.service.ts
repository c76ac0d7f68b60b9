import type { DeleteAccountBody, ErasureEntry, PageQuery, Paginated } from '@kutu/contract';
import type { ModuleDeps } from '../../deps.ts';
import { randomUUID } from 'node:crypto';
import { type Message, message } from '../../i18n/i18n.ts';
import { smsMessage } from '../../i18n/sms-texts.ts';
import { AppError, badRequest, tooMany } from '../../lib/errors.ts';
import { pageWindow, toPage } from '../../lib/pagination.ts';
import type { CodeService } from '../auth/codes.service.ts';
import { verifySecret } from '../auth/account.service.ts';
import type { ConsultationsService } from '../consultations/consultations.service.ts';
import { createErasureRepo, rewriteFiles } from './erasure.repo.ts';

export interface ErasureLog {
  error(obj: object, msg: string): void;
  info?(obj: object, msg: string): void;
}

/** An administrator's account is not erased this way (another administrator removes it). */
class AdminCannotError extends AppError {
  constructor() {
    super('FORBIDDEN', 'errors.privacy.adminCannot', 403);
  }
}

/**
 * Deleting one's account (docs/decisions/0067-consent-and-erasure.md): an account with a password is
 * confirmed by the password; one without, or the DELETE keyword sent from the account's own number, by a
 * code sent by SMS (counted like every code: codes.service.ts). Then the account, its photos (in storage
 * too) and sessions go, the expert's coming bookings are cancelled, the embedded database's files are
 * rewritten (docs/decisions/0080), and the erasure is logged without anything of the person.
 */
export function createErasureService(
  deps: Pick<ModuleDeps, 'db' | 'database' | 'clock' | 'sms' | 'storage' | 'coordinator' | 'delivery' | 'outbox'>,
  log: ErasureLog,
  uses: { codes: CodeService; consultations: Pick<ConsultationsService, 'cancelForLeavingExpert' | 'slotsChanged'> },
) {
  const repo = createErasureRepo(deps.db);
  const { clock } = deps;

  async function account(userId: number) {
    const user = await repo.findUser(userId);
    if (!user) throw new AppError('UNAUTHENTICATED', 'errors.session.invalid', 401);
    if (user.role === 'admin') throw new AdminCannotError();
    return user;
  }

  /**
   * A fresh deletion code for the account, by SMS through the outbox (as sign-up's: docs/decisions/0108);
   * at most one a minute and five an hour. Returns when one may be sent instead, or null once sent.
   */
  async function sendCode(userId: number): Promise<Message | null> {
    await account(userId);
    const sent = await uses.codes.replace(userId, 'ACCOUNT_DELETION');
    if ('problem' in sent) return sent.problem;
    await deps.delivery.tell({
      to: userId,
      key: `code:${randomUUID()}`,
      kind: 'requested',
      sms: smsMessage('smsIn.deleteCode', { code: sent.code }),
    });
    return null;
  }

  /** Erases the account; null when a request a moment before already did. */
  async function erase(userId: number, via: 'web' | 'sms') {
    const now = clock.now();
    let addresses: (string | null)[] = [];
    const done = await deps.delivery.transaction(async (tx, tell) => {
      const user = await repo.lockUser(tx, userId);
      if (!user) return null;
      addresses = [user.phone, user.email];
      if (user.role === 'admin') throw new AdminCannotError();
      const cancelled =
        user.role === 'expert' ? await uses.consultations.cancelForLeavingExpert(tx, tell, userId, now) : 0;
      return repo.erase(tx, user, via, now, cancelled);
    });
    if (!done) return null;
    // The development outbox (kept in memory) forgets what was sent to the person: codes, links, replies.
    deps.outbox.forget(addresses);
    // After the commit: the files go (a failure is logged; the orphan sweep would find them too).
    for (const key of done.keys) {
      await deps.storage.remove(key).catch((err) => log.error({ err, key }, 'could not remove an erased photo'));
    }
    await deps.coordinator.publish({ type: 'session-revoked', userId }).catch(() => {});
    if (done.role === 'expert') await uses.consultations.slotsChanged();
    const started = performance.now();
    await rewriteFiles(deps.database, done.touched).catch((err) =>
      log.error({ err }, 'could not rewrite the database files after an erasure'),
    );
    const rewriteMs = Math.round(performance.now() - started);
    log.info?.({ role: done.role, via, counts: done.counts, rewriteMs }, 'account erased');
    return done;
  }

  return {
    sendCode: async (userId: number) => {
      const user = await account(userId);
      // A signed-in session alone must not erase an account that has a password: the password confirms it.
      if (user.passwordHash !== null) throw badRequest('errors.privacy.usePassword');
      const wait = await sendCode(userId);
      if (wait) throw tooMany(wait);
    },

    /** The web's "delete my account": the password, or the SMS code for an account without one. */
    async deleteAccount(userId: number, body: DeleteAccountBody) {
      const user = await account(userId);
      if (user.passwordHash !== null) {
        const ok = Boolean(body.password) && (await verifySecret(user.passwordHash, body.password ?? ''));
        if (!ok) throw badRequest('errors.auth.wrongCurrentPassword', { password: 'errors.auth.wrongCurrentPassword' });
      } else await uses.codes.check(userId, 'ACCOUNT_DELETION', body.code ?? '', 'code');
      await erase(userId, 'web');
      return { message: message('success.privacy.deleted') };
    },

    /**
     * The DELETE keyword by SMS, from the account's own number: without a code, Kutu answers with one;
     * `DELETE <code>` erases. The reply text is returned for the caller to send (the account is gone by then).
     */
    async bySms(
      userId: number,
      code: string | null,
    ): Promise<'codeSent' | 'erased' | 'wrongCode' | 'adminCannot' | { wait: Message }> {
      try {
        if (code === null) {
          // Asked again too soon: the reply says when a new code can be sent, rather than nothing.
          const wait = await sendCode(userId);
          return wait ? { wait } : 'codeSent';
        }
        await uses.codes.check(userId, 'ACCOUNT_DELETION', code, 'code');
      } catch (err) {
        if (err instanceof AdminCannotError) return 'adminCannot';
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
