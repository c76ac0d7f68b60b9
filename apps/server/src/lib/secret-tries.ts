import { tooMany } from './errors.ts';

/** Wrong secrets an address may send in WRONG_SECRET_WINDOW_MS before it is refused. */
export const WRONG_SECRET_MAX = 20;
export const WRONG_SECRET_WINDOW_MS = 15 * 60_000;

/**
 * Counts wrong shared secrets per address on the gateway's callbacks, which the per-address limit does not
 * cover (the gateway is one address for thousands of farmers). Past the limit, the address is refused
 * with 429 before its secret is even compared, right or wrong, until the window ends: guessing is cut off,
 * while the gateway itself, sending the right secret, never counts. Kept in this process's memory, as the
 * other limits are.
 */
export function createWrongSecretLimit(now: () => number = Date.now) {
  const wrong = new Map<string, { n: number; until: number }>();
  return {
    /** Throws 429 when `address` sent too many wrong secrets lately. */
    check(address: string): void {
      const entry = wrong.get(address);
      if (!entry) return;
      const left = entry.until - now();
      if (left <= 0) wrong.delete(address);
      else if (entry.n >= WRONG_SECRET_MAX) throw tooMany('errors.tooManyAttempts', left / 1000);
    },
    /** Counts one wrong secret from `address`. */
    failed(address: string): void {
      const at = now();
      if (wrong.size > 10_000) for (const [k, v] of wrong) if (v.until <= at) wrong.delete(k);
      const entry = wrong.get(address);
      if (entry && entry.until > at) entry.n += 1;
      else wrong.set(address, { n: 1, until: at + WRONG_SECRET_WINDOW_MS });
    },
  };
}
export type WrongSecretLimit = ReturnType<typeof createWrongSecretLimit>;
