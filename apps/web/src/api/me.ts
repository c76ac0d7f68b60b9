import { queryOptions } from '@tanstack/react-query';
import type { UserRecord } from '@kutu/contract';
import { api } from '@kutu/contract/paths';
import { http } from '../lib/api.ts';

/**
 * The signed-in user's record. The account layout starts it with the shell and keeps the stored
 * profile fresh from it; a rejected, unrefreshable token then signs the user out (lib/api.ts). Apart
 * from api/profile.ts so the shell, whose bytes every screen carries, takes only this.
 */
export const meQuery = queryOptions({ queryKey: ['me'], queryFn: () => http.get<UserRecord>(api.auth.me) });

/** Signing out: the server revokes this refresh token (and with it the session's access tokens). */
export const revokeSession = (refresh: string) =>
  http.post(api.auth.logout, { refresh }, { auth: false }).catch(() => undefined);
