import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** The browser's resource timing: `arrive()` is one file (a script, an image, an answer) finished loading. */
class ResourceObserver {
  static supportedEntryTypes = ['resource'];
  static watching = new Set<ResourceObserver>();
  private readonly callback: () => void;
  constructor(callback: () => void) {
    this.callback = callback;
  }
  observe(options: { type: string }) {
    expect(options.type).toBe('resource');
    ResourceObserver.watching.add(this);
  }
  disconnect() {
    ResourceObserver.watching.delete(this);
  }
  static arrive() {
    for (const observer of ResourceObserver.watching) observer.callback();
  }
}

let idleCallbacks: (() => void)[];

beforeEach(() => {
  vi.useFakeTimers();
  vi.resetModules();
  ResourceObserver.watching.clear();
  idleCallbacks = [];
  vi.stubGlobal('PerformanceObserver', ResourceObserver);
  vi.stubGlobal('requestIdleCallback', (callback: () => void) => idleCallbacks.push(callback));
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  // An own property set by a test hides jsdom's getter; deleting it shows the getter again.
  delete (document as { readyState?: string }).readyState;
});

async function startWaiting() {
  const { whenSettled, QUIET_MS } = await import('./when-settled.ts');
  const state = { settled: false };
  void whenSettled().then(() => (state.settled = true));
  return { state, QUIET_MS, whenSettled };
}

const runIdleCallbacks = async () => {
  for (const callback of idleCallbacks.splice(0)) callback();
  await vi.advanceTimersByTimeAsync(0);
};

describe('whenSettled', () => {
  it('waits until no file has arrived for QUIET_MS, then for an idle main thread', async () => {
    const { state, QUIET_MS } = await startWaiting();
    await vi.advanceTimersByTimeAsync(QUIET_MS - 100);
    ResourceObserver.arrive();
    await vi.advanceTimersByTimeAsync(QUIET_MS - 100);
    ResourceObserver.arrive();
    await vi.advanceTimersByTimeAsync(QUIET_MS - 1);
    await runIdleCallbacks();
    expect(state.settled).toBe(false);

    await vi.advanceTimersByTimeAsync(1);
    expect(ResourceObserver.watching.size).toBe(0);
    expect(state.settled).toBe(false);
    expect(idleCallbacks).toHaveLength(1);
    await runIdleCallbacks();
    expect(state.settled).toBe(true);
  });

  it('a page that keeps loading counts as settled LONGEST_WAIT_MS after its load', async () => {
    const { LONGEST_WAIT_MS } = await import('./when-settled.ts');
    const { state } = await startWaiting();
    for (let waited = 0; waited < LONGEST_WAIT_MS - 1000; waited += 1000) {
      await vi.advanceTimersByTimeAsync(1000);
      ResourceObserver.arrive();
    }
    await vi.advanceTimersByTimeAsync(999);
    await runIdleCallbacks();
    expect(state.settled).toBe(false);

    await vi.advanceTimersByTimeAsync(1);
    expect(ResourceObserver.watching.size).toBe(0);
    await runIdleCallbacks();
    expect(state.settled).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('does not start counting before the page has loaded', async () => {
    Object.defineProperty(document, 'readyState', { value: 'loading', configurable: true });
    const { state, QUIET_MS } = await startWaiting();
    await vi.advanceTimersByTimeAsync(QUIET_MS * 3);
    await runIdleCallbacks();
    expect(state.settled).toBe(false);

    window.dispatchEvent(new Event('load'));
    await vi.advanceTimersByTimeAsync(QUIET_MS);
    await runIdleCallbacks();
    expect(state.settled).toBe(true);
  });

  it('settles once: a later call gets the same promise and starts no second wait', async () => {
    const { whenSettled, QUIET_MS } = await startWaiting();
    const first = whenSettled();
    expect(whenSettled()).toBe(first);
    await vi.advanceTimersByTimeAsync(QUIET_MS);
    await runIdleCallbacks();
    await first;
    expect(whenSettled()).toBe(first);
    expect(ResourceObserver.watching.size).toBe(0);
    expect(idleCallbacks).toHaveLength(0);
  });

  it('without resource timing or idle callbacks, waits QUIET_MS after the load', async () => {
    vi.stubGlobal('PerformanceObserver', undefined);
    vi.stubGlobal('requestIdleCallback', undefined);
    const { state, QUIET_MS } = await startWaiting();
    await vi.advanceTimersByTimeAsync(QUIET_MS - 1);
    expect(state.settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    // The idle wait is then a zero-delay timer (which runs a millisecond later).
    await vi.advanceTimersByTimeAsync(1);
    expect(state.settled).toBe(true);
  });
});
