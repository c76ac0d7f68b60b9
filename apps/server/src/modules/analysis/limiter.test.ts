import { describe, expect, it } from 'vitest';
import { createLimiter } from './limiter.ts';

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

describe('createLimiter', () => {
  it('runs at most `concurrency` tasks at once, queues the next ones in order, and refuses beyond the queue', async () => {
    const limiter = createLimiter({ concurrency: 2, maxQueued: 2 });
    const g = gate();
    const started: number[] = [];
    let running = 0;
    let peak = 0;
    const task = (n: number) =>
      limiter.run(async () => {
        started.push(n);
        running += 1;
        peak = Math.max(peak, running);
        await g.opened;
        running -= 1;
        return n;
      });
    const accepted = [task(1), task(2), task(3), task(4)];
    await Promise.resolve();
    expect(started).toEqual([1, 2]);
    expect(limiter.stats()).toEqual({ active: 2, queued: 2 });
    expect(limiter.isFull()).toBe(true);
    await expect(task(5)).rejects.toMatchObject({
      status: 503,
      code: 'SERVICE_UNAVAILABLE',
      message: 'The analysis service is busy, please try again in a moment',
    });
    g.open();
    expect(await Promise.all(accepted)).toEqual([1, 2, 3, 4]);
    expect(started).toEqual([1, 2, 3, 4]);
    expect(peak).toBe(2);
    expect(limiter.stats()).toEqual({ active: 0, queued: 0 });
  });

  it('frees the slot when a task fails', async () => {
    const limiter = createLimiter({ concurrency: 1, maxQueued: 0 });
    await expect(limiter.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await limiter.run(async () => 'next')).toBe('next');
    expect(limiter.stats()).toEqual({ active: 0, queued: 0 });
  });
});
