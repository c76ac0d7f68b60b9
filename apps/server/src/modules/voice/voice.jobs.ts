import { ProgramMissingError } from '../../adapters/speech.ts';
import type { App } from '../../deps.ts';
import type { RouteContext } from '../../route-context.ts';
import type { createVoiceService } from './voice.service.ts';

/** The queue that renders the call's sentences and the advice ahead of the first caller. */
export const VOICE_WARM_QUEUE = 'voice-warm';
/** After the start has settled (a short-lived process, a test's, renders nothing). */
const WARM_AFTER_MS = 2 * 60_000;

/**
 * Renders ahead; without eSpeak NG (not installed) it says once, plainly, what the call does instead and
 * finishes: a failed job would be retried and logged as an error each time.
 */
export async function warmVoice(
  voice: Pick<ReturnType<typeof createVoiceService>, 'warm'>,
  log: Pick<App['log'], 'info' | 'warn'>,
): Promise<void> {
  try {
    const n = await voice.warm();
    log.info({ sentences: n }, 'voice call sentences rendered');
  } catch (err) {
    if (!(err instanceof ProgramMissingError)) throw err;
    log.warn(
      `${err.program} is not installed, so Kutu has no synthesized voice: a voice call plays the approved recorded clips, and the gateway's own voice reads every sentence without one. Install ${err.program} (apt-get install ${err.program}) for Kutu's English and Kiswahili voice.`,
    );
  }
}

export function voiceJobs(
  app: App,
  { deps: { jobs, config }, services: { voice } }: RouteContext<{ voice: ReturnType<typeof createVoiceService> }>,
) {
  jobs.handle(VOICE_WARM_QUEUE, () => warmVoice(voice, app.log));
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
