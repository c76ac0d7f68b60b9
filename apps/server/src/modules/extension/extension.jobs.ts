import { type JobQueue, repeatJob } from '../../adapters/jobs.ts';
import type { App } from '../../deps.ts';
import type { RouteContext } from '../../route-context.ts';
import type { ForecastService } from '../forecast/forecast.service.ts';
import type { ExtensionService } from './extension.service.ts';

/**
 * The queue of the Monday sweep: the officers' report (weekly.ts) and the national bulletin (forecast/bulletin-mail.ts),
 * on Mondays only, once per district or reader and week; the forecast's score, once per ISO week whatever the day
 * (the first sweep of the week, also the one a worker runs when it starts).
 */
export const WEEKLY_REPORT_QUEUE = 'extension-weekly-report';
export const WEEKLY_REPORT_SWEEP_MS = 60 * 60_000;

export function extensionJobs(
  _app: App,
  {
    deps: { jobs },
    services: { extension, forecast },
  }: RouteContext<{ extension: ExtensionService; forecast: ForecastService }>,
) {
  // The same Monday sweep sends the national bulletin to administrators and national officers (docs/decisions/0122),
  // after storing the week's forecast score it prints, once per ISO week (docs/decisions/0137).
  jobs.handle(WEEKLY_REPORT_QUEUE, async () => {
    await extension.sendWeekly();
    await forecast.storeScore();
    await forecast.sendBulletin();
  });
}

/** Queues a sweep now and then every hour (worker processes); returns a stop function. */
export function startWeeklyReportSweep(jobs: JobQueue, log: (msg: string, err: unknown) => void): () => void {
  return repeatJob(jobs, WEEKLY_REPORT_QUEUE, WEEKLY_REPORT_SWEEP_MS, log);
}
