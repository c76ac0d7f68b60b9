import type { JobQueue } from '../../adapters/jobs.ts';

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
  const tick = () => void jobs.send(UPKEEP_QUEUE, {}).catch((err) => log('consultations upkeep not queued', err));
  tick();
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
