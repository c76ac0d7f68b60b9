/**
 * The head refit off the event loop (a worker thread): L-BFGS and the ood statistics take seconds of
 * pure JavaScript, which must not stall the server's requests. Receives a FitJob, posts progress
 * messages and then `{ type: 'done', head }` (or `{ type: 'error', message, stack }`).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { type FitJob, fitHeadOnFeatures } from './refit.ts';

const job = workerData as FitJob;
try {
  const result = fitHeadOnFeatures(job, (p) => parentPort!.postMessage({ type: 'progress', ...p }));
  parentPort!.postMessage({ type: 'done', result });
} catch (err) {
  parentPort!.postMessage({
    type: 'error',
    message: err instanceof Error ? err.message : String(err),
    stack: err instanceof Error ? err.stack : undefined,
  });
}
