import { type JobQueue, repeatJob } from '../../adapters/jobs.ts';

/** The queue of the outbreak upkeep: end the alerts whose cases have left the window (0032). */
export const OUTBREAK_UPKEEP_QUEUE = 'outbreak-upkeep';
/** An alert ends at most this late after its rule stops holding; a run reads only the open alerts. */
export const OUTBREAK_UPKEEP_INTERVAL_MS = 60 * 60_000;

/** Queues an outbreak upkeep run now and then every interval; returns a stop function. */
export function startOutbreakUpkeep(
  jobs: JobQueue,
  log: (msg: string, err: unknown) => void,
  intervalMs = OUTBREAK_UPKEEP_INTERVAL_MS,
): () => void {
  return repeatJob(jobs, OUTBREAK_UPKEEP_QUEUE, intervalMs, log);
}
