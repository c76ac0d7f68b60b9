import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';

/**
 * The "known device" cookie (docs/decisions/0008, L3): set when a sign-in succeeds, it lets the right
 * password from that browser through even while the account's failed sign-ins make strangers wait.
 * Value: `<userId>.<deviceId>.<HMAC>`; only the server can make one, and it names one account.
 */
export const DEVICE_COOKIE = 'kutu_device';
const MAX_AGE_SECONDS = 365 * 24 * 3600;

export function createDeviceCookies(secret: string, secure: boolean) {
  const key = createHmac('sha256', secret).update('kutu-known-device').digest();
  const sign = (payload: string) => createHmac('sha256', key).update(payload).digest('base64url');

  return {
    /** The Set-Cookie header for a new known device of this user. */
    issue(userId: number) {
      const payload = `${userId}.${randomUUID()}`;
      return (
        `${DEVICE_COOKIE}=${payload}.${sign(payload)}; Path=/api/auth/; Max-Age=${MAX_AGE_SECONDS}; HttpOnly; ` +
        `SameSite=Strict${secure ? '; Secure' : ''}`
      );
    },

    /** The device id when the request carries a genuine cookie for this user; otherwise null. */
    deviceOf(cookieHeader: string | undefined, userId: number): string | null {
      const value = cookieValue(cookieHeader, DEVICE_COOKIE);
      const [owner, deviceId, signature, ...rest] = value?.split('.') ?? [];
      if (!owner || !deviceId || !signature || rest.length || owner !== String(userId)) return null;
      const expected = Buffer.from(sign(`${owner}.${deviceId}`));
      const given = Buffer.from(signature);
      return given.length === expected.length && timingSafeEqual(given, expected) ? deviceId : null;
    },
  };
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of header?.split(';') ?? []) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
