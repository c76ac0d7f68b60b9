import { describe, expect, it } from 'vitest';
import { createDecodeLimiter } from './decode-limiter.ts';

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

describe('createDecodeLimiter', () => {
  it('runs at most `concurrency` tasks at once, queues the next ones in order, and refuses beyond the queue', async () => {
    const limiter = createDecodeLimiter({ concurrency: 2, maxQueued: 2, perUser: 10 });
    const g = gate();
    const started: number[] = [];
    let running = 0;
    let peak = 0;
    const task = (n: number) =>
      limiter.run(n, async () => {
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
    expect(() => limiter.assertRoom(5)).toThrow('busy');
    await expect(task(5)).rejects.toMatchObject({
      status: 503,
      code: 'SERVICE_UNAVAILABLE',
      message: 'The analysis service is busy, please try again in a moment',
      retryAfterSeconds: expect.any(Number),
    });
    g.open();
    expect(await Promise.all(accepted)).toEqual([1, 2, 3, 4]);
    expect(started).toEqual([1, 2, 3, 4]);
    expect(peak).toBe(2);
    expect(limiter.stats()).toEqual({ active: 0, queued: 0 });
  });

  it('frees the slot when a task fails', async () => {
    const limiter = createDecodeLimiter({ concurrency: 1, maxQueued: 0, perUser: 1 });
    await expect(limiter.run(1, () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await limiter.run(1, async () => 'next')).toBe('next');
    expect(limiter.stats()).toEqual({ active: 0, queued: 0 });
  });

  it('lets one user hold at most `perUser` places, so others still get in while one floods', async () => {
    const limiter = createDecodeLimiter({ concurrency: 2, maxQueued: 6, perUser: 3 });
    const g = gate();
    const order: string[] = [];
    const task = (user: number, name: string) =>
      limiter.run(user, async () => {
        order.push(name);
        await g.opened;
      });
    const flood = Array.from({ length: 10 }, (_, i) =>
      task(1, `flood${i}`).then(
        () => 'ok',
        (e) => e.status,
      ),
    );
    const other = task(2, 'other');
    await Promise.resolve();
    expect(limiter.stats()).toEqual({ active: 2, queued: 2 });
    expect(() => limiter.assertRoom(1)).toThrow('still being checked');
    expect(() => limiter.assertRoom(3)).not.toThrow();
    g.open();
    await other;
    expect(await Promise.all(flood)).toEqual(['ok', 'ok', 'ok', ...Array(7).fill(429)]);
    expect(order).toEqual(['flood0', 'flood1', 'flood2', 'other']);
    // The share is given back once the user's tasks finish.
    expect(await limiter.run(1, async () => 'again')).toBe('again');
  });
});
