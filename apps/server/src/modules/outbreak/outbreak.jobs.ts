import { OUTBREAK_ALERT_QUEUE, type OutbreakService } from './outbreak.service.ts';
import { OUTBREAK_UPKEEP_QUEUE } from './upkeep.ts';
import type { RouteContext } from '../../route-context.ts';
import type { App } from '../../deps.ts';

/** The outbreak queue handlers: deliver a raised alert; on each upkeep run, repair lagging counts and end lapsed alerts. */
export function outbreakJobs(
  _app: App,
  { deps: { jobs }, services: { outbreak } }: RouteContext<{ outbreak: OutbreakService }>,
) {
  // A worker that dies during a fan-out stops beating: its job fails and is tried again, and a worker
  // that starts queues every unfinished fan-out (each goes on where it stopped).
  jobs.handle<{ alertId: number }>(OUTBREAK_ALERT_QUEUE, (data) => outbreak.deliver(data.alertId), {
    retryLimit: 3,
    heartbeatSeconds: 10,
    onWorkerStart: () => outbreak.resumeDeliveries(),
  });
  // An alert ends when its district's cases fall below the rule, also when only time passed (0032).
  // First the cases a crash left uncounted (a verdict committed, its count not), then the alerts.
  jobs.handle(OUTBREAK_UPKEEP_QUEUE, async () => {
    await outbreak.reconcile();
    await outbreak.endLapsedAlerts();
  });
}
