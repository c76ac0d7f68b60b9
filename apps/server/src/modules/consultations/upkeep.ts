import { type JobQueue, repeatJob } from '../../adapters/jobs.ts';

/** The queue of the consultations upkeep: top up weekly availability, send due reminders. */
export const UPKEEP_QUEUE = 'consultations-upkeep';
/** Reminders go out at most this late; each run is cheap (two indexed updates and the active rules). */
export const UPKEEP_INTERVAL_MS = 5 * 60_000;

/** Queues an upkeep run now and then every interval; returns a stop function. */
export function startConsultationUpkeep(
  jobs: JobQueue,
  log: (msg: string, err: unknown) => void,
  intervalMs = UPKEEP_INTERVAL_MS,
): () => void {
  return repeatJob(jobs, UPKEEP_QUEUE, intervalMs, log);
}
