import type { App } from '../../deps.ts';
import type { RouteContext } from '../../route-context.ts';
import type { createVoiceService } from './voice.service.ts';

/** The queue that renders the call's sentences and the advice ahead of the first caller. */
export const VOICE_WARM_QUEUE = 'voice-warm';
/** After the start has settled (a short-lived process, a test's, renders nothing). */
const WARM_AFTER_MS = 2 * 60_000;

export function voiceJobs(
  app: App,
  { deps: { jobs, config }, services: { voice } }: RouteContext<{ voice: ReturnType<typeof createVoiceService> }>,
) {
  jobs.handle(VOICE_WARM_QUEUE, async () => {
    const n = await voice.warm();
    app.log.info({ sentences: n }, 'voice call sentences rendered');
  });
  // Only where the gateway can call in (its secret is set) and this process runs jobs.
  if (!config.jobs || !config.phone.callbackSecret) return;
  app.addHook('onReady', async () => {
    setTimeout(
      () =>
        void jobs.send(VOICE_WARM_QUEUE, {}).catch((err) => app.log.error({ err }, `${VOICE_WARM_QUEUE} not queued`)),
      WARM_AFTER_MS,
    ).unref();
  });
}
