import { imageUploadMessages } from '@kutu/contract';
import { AppError } from '../../lib/errors.ts';

export const busy = () => new AppError('SERVICE_UNAVAILABLE', imageUploadMessages.busy, 503);

/**
 * Runs at most `concurrency` tasks at once and lets at most `maxQueued` wait; beyond that, callers
 * are told at once that the service is busy (503) instead of waiting without end.
 */
export function createLimiter(opts: { concurrency: number; maxQueued: number }) {
  let active = 0;
  const waiting: (() => void)[] = [];
  return {
    /** True when a new task would be refused: check before reading a large upload. */
    isFull: () => active >= opts.concurrency && waiting.length >= opts.maxQueued,
    stats: () => ({ active, queued: waiting.length }),
    async run<T>(task: () => Promise<T>): Promise<T> {
      if (active < opts.concurrency) active += 1;
      else if (waiting.length < opts.maxQueued) await new Promise<void>((resolve) => waiting.push(resolve));
      else throw busy();
      try {
        return await task();
      } finally {
        // Hand the slot straight to the next waiter, or free it.
        const next = waiting.shift();
        if (next) next();
        else active -= 1;
      }
    },
  };
}
export type Limiter = ReturnType<typeof createLimiter>;
