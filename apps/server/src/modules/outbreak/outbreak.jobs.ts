import type { JobQueue } from '../../adapters/jobs.ts';
import { OUTBREAK_ALERT_QUEUE, type OutbreakService } from './outbreak.service.ts';
import { OUTBREAK_UPKEEP_QUEUE } from './upkeep.ts';

/** The outbreak queue handlers: deliver a raised alert, and end lapsed alerts on each upkeep run. */
export function outbreakJobs(jobs: JobQueue, outbreak: OutbreakService) {
  jobs.handle<{ alertId: number }>(OUTBREAK_ALERT_QUEUE, (data) => outbreak.deliver(data.alertId), {
    retryLimit: 3,
  });
  // An alert ends when its district's cases fall below the rule, also when only time passed (0032).
  jobs.handle(OUTBREAK_UPKEEP_QUEUE, async () => {
    await outbreak.endLapsedAlerts();
  });
}
