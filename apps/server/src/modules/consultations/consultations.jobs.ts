import type { JobQueue } from '../../adapters/jobs.ts';
import type { AvailabilityService } from './availability.service.ts';

/** The queue of the consultations upkeep: top up weekly availability, send due reminders. */
export const UPKEEP_QUEUE = 'consultations-upkeep';
/** Reminders go out at most this late; each run is cheap (two indexed updates and the active rules). */
const UPKEEP_INTERVAL_MS = 5 * 60_000;

/** The upkeep's queue handler; idempotent, so overlapping runs are harmless. */
export function consultationsJobs(jobs: JobQueue, availability: AvailabilityService) {
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
  const tick = () => void jobs.send(UPKEEP_QUEUE, {}).catch((err) => log('consultations upkeep not queued', err));
  tick();
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
