import { type JobQueue, repeatJob } from '../../adapters/jobs.ts';
import type { RouteContext } from '../../route-context.ts';
import type { createAvailabilityService } from './availability.service.ts';
import type { App } from '../../deps.ts';

/** The queue of the consultations upkeep: top up weekly availability, send due reminders. */
export const UPKEEP_QUEUE = 'consultations-upkeep';
/** Reminders go out at most this late; each run is cheap (two indexed updates and the active rules). */
const UPKEEP_INTERVAL_MS = 5 * 60_000;

/** The upkeep's queue handler; idempotent, so overlapping runs are harmless. */
export function consultationsJobs(
  _app: App,
  {
    deps: { jobs },
    services: { availability },
  }: RouteContext<{ availability: ReturnType<typeof createAvailabilityService> }>,
) {
  jobs.handle(UPKEEP_QUEUE, async () => {
    await availability.topUp();
    await availability.sendDueReminders();
  });
}

/** Queues an upkeep run now and then every interval; returns a stop function. */
export function startConsultationUpkeep(
  jobs: JobQueue,
  log: (msg: string, err: unknown) => void,
  intervalMs = UPKEEP_INTERVAL_MS,
): () => void {
  return repeatJob(jobs, UPKEEP_QUEUE, intervalMs, log);
}
