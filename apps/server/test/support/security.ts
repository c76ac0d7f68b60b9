import { api } from '@kutu/contract';
import { expect } from 'vitest';
import type { TestContext } from './app.ts';
import { bearer } from './users.ts';

/**
 * Settings for a test app in production mode: real-looking secrets, and SMS only logged (the gateway is
 * the one boundary we cannot run here; mail goes to the test's real SMTP peer).
 */
export function productionEnv(extra: Record<string, string> = {}): Record<string, string> {
  return {
    NODE_ENV: 'production',
    JWT_ACCESS_SECRET: 'production-access-secret-for-the-tests',
    JWT_REFRESH_SECRET: 'production-refresh-secret-for-the-tests',
    SMS_TRANSPORT: 'log',
    AT_CALLBACK_SECRET: 'gateway-callback-secret-for-the-tests',
    ...extra,
  };
}

/** Reset emails to this address so far (they are sent after the reply, so they arrive a bit later). */
export function resetMails(t: TestContext, email: string) {
  return t.smtp.inbox.filter((m) => m.to === email && m.subject === 'Reset your Kutu password');
}

/** The token of the reset email number `n` (1 = the first) to this address, once it has arrived. */
export async function resetToken(t: TestContext, email: string, n = 1) {
  await expect.poll(() => resetMails(t, email).length).toBeGreaterThanOrEqual(n);
  const link = resetMails(t, email)[n - 1].text.match(/\/auth\/confirm-password-reset\?token=(\S+)/);
  return decodeURIComponent(link![1]);
}

/** Changes the password from `old` to "Ch4nged!Pass" with this access token. */
export function changePassword(t: TestContext, access: string, old: string) {
  return t.app.inject({
    method: 'PUT',
    url: api.auth.changePassword,
    headers: bearer(access),
    payload: { oldPassword: old, newPassword: 'Ch4nged!Pass', confirmPassword: 'Ch4nged!Pass' },
  });
}
