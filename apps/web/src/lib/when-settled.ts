/**
 * Work the first screen does not need waits until the page has settled: loaded, nothing (a script, an
 * image, an answer from the server) finished arriving for QUIET_MS, and then the main thread idle. The
 * service worker's install downloads the shell and first screens (decision 0037) and the offline sync opens
 * the photo queue and asks after the model: started as soon as the page loaded, they competed with the
 * first screen for a slow phone's cores and network (decision 0016).
 */
export const QUIET_MS = 2000;
/** A page that keeps loading (a slow network, a screen that polls) counts as settled this long after its load. */
export const LONGEST_WAIT_MS = 30_000;
/** An idle main thread is waited for at most this long. */
const IDLE_TIMEOUT_MS = 5000;

let settled: Promise<void> | undefined;

/** Resolves once, when the page has settled after it opened; later calls get the same promise. */
export function whenSettled(): Promise<void> {
  settled ??= loaded().then(networkQuiet).then(idle);
  return settled;
}

function loaded() {
  return new Promise<void>((resolve) => {
    if (document.readyState === 'complete') resolve();
    else window.addEventListener('load', () => resolve(), { once: true });
  });
}

/**
 * Resolves once no resource has finished loading for QUIET_MS, or LONGEST_WAIT_MS have passed (a browser
 * without resource timing waits QUIET_MS).
 */
function networkQuiet() {
  return new Promise<void>((resolve) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const restart = () => {
      clearTimeout(timer);
      timer = setTimeout(done, QUIET_MS);
    };
    const timed =
      typeof PerformanceObserver === 'function' && PerformanceObserver.supportedEntryTypes?.includes('resource');
    const observer = timed ? new PerformanceObserver(restart) : undefined;
    const longest = setTimeout(done, LONGEST_WAIT_MS);
    function done() {
      clearTimeout(timer);
      clearTimeout(longest);
      observer?.disconnect();
      resolve();
    }
    observer?.observe({ type: 'resource' });
    restart();
  });
}

function idle() {
  return new Promise<void>((resolve) => {
    if (typeof requestIdleCallback === 'function') requestIdleCallback(() => resolve(), { timeout: IDLE_TIMEOUT_MS });
    else setTimeout(resolve, 0);
  });
}
