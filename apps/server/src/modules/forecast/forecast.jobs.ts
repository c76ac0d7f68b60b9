import { type JobQueue, repeatJob } from '../../adapters/jobs.ts';
import type { App } from '../../deps.ts';
import type { RouteContext } from '../../route-context.ts';
import { FORECAST_QUEUE, type ForecastService } from './forecast.service.ts';

/** The forecast's queue handler: fetch the weather, run the forecast, send the advisories (docs/decisions/0100). */
export function forecastJobs(
  _app: App,
  { deps: { jobs }, services: { forecast } }: RouteContext<{ forecast: ForecastService }>,
) {
  jobs.handle(FORECAST_QUEUE, async () => {
    await forecast.refresh();
  });
}

/** Queues a forecast run now and every `intervalMs` (WEATHER_EVERY_HOURS); returns a stop function. */
export function startForecastRuns(
  jobs: JobQueue,
  intervalMs: number,
  log: (msg: string, err: unknown) => void,
): () => void {
  return repeatJob(jobs, FORECAST_QUEUE, intervalMs, log);
}
