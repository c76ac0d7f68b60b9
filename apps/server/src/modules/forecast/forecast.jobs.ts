import { type JobQueue, repeatJob } from '../../adapters/jobs.ts';
import type { App } from '../../deps.ts';
import type { RouteContext } from '../../route-context.ts';
import { FORECAST_QUEUE, type ForecastService } from './forecast.service.ts';

/** The queue of the hourly send: a run's advisories go at ADVISORY_SEND_HOUR unless held (docs/decisions/0128). */
export const ADVISORY_SEND_QUEUE = 'forecast-advisory-send';
export const ADVISORY_SEND_SWEEP_MS = 60 * 60_000;

/** The forecast's queue handler: fetch the weather, run the forecast, send the advisories (docs/decisions/0100). */
export function forecastJobs(
  _app: App,
  { deps: { jobs }, services: { forecast } }: RouteContext<{ forecast: ForecastService }>,
) {
  jobs.handle(FORECAST_QUEUE, async () => {
    await forecast.refresh();
  });
  jobs.handle(ADVISORY_SEND_QUEUE, async () => {
    await forecast.sendDue();
    // Runs older than FORECAST_KEEP_DAYS go (docs/decisions/0129).
    await forecast.pruneRuns();
  });
}

/** Queues the advisories' send now and every hour (worker processes); returns a stop function. */
export function startAdvisorySends(jobs: JobQueue, log: (msg: string, err: unknown) => void): () => void {
  return repeatJob(jobs, ADVISORY_SEND_QUEUE, ADVISORY_SEND_SWEEP_MS, log);
}

/** Queues a forecast run now and every `intervalMs` (WEATHER_EVERY_HOURS); returns a stop function. */
export function startForecastRuns(
  jobs: JobQueue,
  intervalMs: number,
  log: (msg: string, err: unknown) => void,
): () => void {
  return repeatJob(jobs, FORECAST_QUEUE, intervalMs, log);
}
