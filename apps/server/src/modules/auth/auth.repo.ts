import type { Db } from '../../db/client.ts';
import { createAccountsRepo } from './accounts.repo.ts';
import { createCodesRepo } from './codes.repo.ts';
import { createPasswordsRepo } from './passwords.repo.ts';
import { createSessionsRepo } from './sessions.repo.ts';
import { createThrottleRepo } from './throttle.repo.ts';

export { type Account, uniqueViolation, type UserRow } from './accounts.repo.ts';
export type { CodePurpose } from './codes.repo.ts';

/** The auth module's queries, kept by job: accounts, codes and sign-up links, passwords, sessions, throttles. */
export function createAuthRepo(db: Db) {
  return {
    ...createAccountsRepo(db),
    ...createCodesRepo(db),
    ...createPasswordsRepo(db),
    ...createSessionsRepo(db),
    ...createThrottleRepo(db),
  };
}
