import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/**
 * The request being served (or the job being run, which carries the id of the request that queued
 * it), so that logs of a job say which request started it without passing ids through every call. It
 * sits with the adapters because the queue adapter (jobs.ts) carries the id into each job, and adapters
 * import nothing of lib/.
 */
const storage = new AsyncLocalStorage<{ requestId: string }>();

export const runWithRequestId = <T>(requestId: string, fn: () => T): T => storage.run({ requestId }, fn);
export const currentRequestId = (): string | undefined => storage.getStore()?.requestId;

/** A proxy's `X-Request-Id` when it looks like one (so one id spans proxy and app logs), else a new one. */
export function requestIdOf(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && /^[\w.:-]{8,100}$/.test(given) ? given : randomUUID();
}
