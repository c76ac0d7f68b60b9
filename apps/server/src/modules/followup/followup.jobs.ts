import { type JobQueue, repeatJob } from '../../adapters/jobs.ts';
import type { RouteContext } from '../../route-context.ts';
import type { FollowUpService } from './followup.service.ts';
import type { App } from '../../deps.ts';

/** The queue of the follow-up sweep: send the due reminders (docs/decisions/0044). */
export const FOLLOW_UP_QUEUE = 'follow-up-reminders';
/** A reminder goes out at most this late after it is due: well inside the 7 to 10 day window. */
export const FOLLOW_UP_SWEEP_INTERVAL_MS = 60 * 60_000;

export function followUpJobs(
  _app: App,
  { deps: { jobs }, services: { followUps } }: RouteContext<{ followUps: FollowUpService }>,
) {
  jobs.handle(FOLLOW_UP_QUEUE, async () => {
    await followUps.sendDue();
  });
}

/** Queues a sweep now and then every interval (worker processes); returns a stop function. */
export function startFollowUpSweep(
  jobs: JobQueue,
  log: (msg: string, err: unknown) => void,
  intervalMs = FOLLOW_UP_SWEEP_INTERVAL_MS,
): () => void {
  return repeatJob(jobs, FOLLOW_UP_QUEUE, intervalMs, log);
}
