import { forbidden, tooMany } from './errors.ts';

/** Wrong secrets an address may send in WRONG_SECRET_WINDOW_MS before its wrong ones are answered 429. */
export const WRONG_SECRET_MAX = 20;
export const WRONG_SECRET_WINDOW_MS = 15 * 60_000;

/**
 * Counts wrong shared secrets per address on the gateway's callbacks, which the per-address limit does not
 * cover (the gateway is one address for thousands of farmers). Past the limit, the address's wrong secrets
 * are answered 429 until the window ends. The right secret always passes: Africa's Talking calls back from
 * a few addresses all its customers share, so another customer's guesses (or a misconfigured callback)
 * must not shut Kutu's own gateway out. Guessing a secret of 16 or more random characters is hopeless
 * anyway; the count cuts the noise off. Kept in this process's memory, as the other limits are.
 */
export function createWrongSecretLimit(now: () => number = Date.now) {
  const wrong = new Map<string, { n: number; until: number }>();

  /** Counts one wrong secret from `address`; returns the milliseconds the address stays cut off, or 0. */
  function failed(address: string): number {
    const at = now();
    if (wrong.size > 10_000) for (const [k, v] of wrong) if (v.until <= at) wrong.delete(k);
    const entry = wrong.get(address);
    if (entry && entry.until > at) entry.n += 1;
    else wrong.set(address, { n: 1, until: at + WRONG_SECRET_WINDOW_MS });
    const counted = wrong.get(address)!;
    return counted.n > WRONG_SECRET_MAX ? counted.until - at : 0;
  }

  return {
    /** Passes the right secret; a wrong one throws 403, or 429 once `address` sent too many lately. */
    assertRight(address: string, right: boolean): void {
      if (right) return;
      const left = failed(address);
      if (left > 0) throw tooMany('errors.tooManyAttempts', left / 1000);
      throw forbidden();
    },
  };
}
export type WrongSecretLimit = ReturnType<typeof createWrongSecretLimit>;
