import { AppError } from './errors.ts';

/**
 * How much image work (decoding, re-encoding, classifying) runs at once, process-wide: two CPU cores
 * give two at a time and a short queue. One user may hold at most `perUser` of the running and
 * queued places together, so a farmer sending thirty photos at once cannot make everyone else wait.
 */
export const DECODE_LIMITS = { concurrency: 2, maxQueued: 16, perUser: 4 };
/** What a refused caller is told to wait (`Retry-After`): about the time a queued photo takes. */
export const DECODE_RETRY_AFTER_SECONDS = 5;

export const busy = () =>
  Object.assign(new AppError('SERVICE_UNAVAILABLE', 'errors.upload.busy', 503), {
    retryAfterSeconds: DECODE_RETRY_AFTER_SECONDS,
  });
export const userBusy = () =>
  Object.assign(new AppError('RATE_LIMITED', 'errors.upload.userBusy', 429), {
    retryAfterSeconds: DECODE_RETRY_AFTER_SECONDS,
  });

export function createDecodeLimiter(limits: typeof DECODE_LIMITS = DECODE_LIMITS) {
  let active = 0;
  const waiting: (() => void)[] = [];
  /** Running plus queued tasks per user. */
  const held = new Map<number, number>();

  function refusal(userId: number): AppError | null {
    if ((held.get(userId) ?? 0) >= limits.perUser) return userBusy();
    if (active >= limits.concurrency && waiting.length >= limits.maxQueued) return busy();
    return null;
  }

  return {
    /** Throws the 429 or 503 a new task of this user would get: check before reading a large upload. */
    assertRoom(userId: number) {
      const refused = refusal(userId);
      if (refused) throw refused;
    },
    stats: () => ({ active, queued: waiting.length }),
    /** Runs `task` for `userId` once a place is free. Never call run() from inside a task: it could wait for itself. */
    async run<T>(userId: number, task: () => Promise<T>): Promise<T> {
      const refused = refusal(userId);
      if (refused) throw refused;
      held.set(userId, (held.get(userId) ?? 0) + 1);
      try {
        if (active < limits.concurrency) active += 1;
        else await new Promise<void>((resolve) => waiting.push(resolve));
        try {
          return await task();
        } finally {
          // Hand the slot straight to the next waiter, or free it.
          const next = waiting.shift();
          if (next) next();
          else active -= 1;
        }
      } finally {
        const left = (held.get(userId) ?? 1) - 1;
        if (left > 0) held.set(userId, left);
        else held.delete(userId);
      }
    },
  };
}
export type DecodeLimiter = ReturnType<typeof createDecodeLimiter>;
