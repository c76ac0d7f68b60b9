import { DEFAULT_GATEWAY_TIMEOUT_MS } from './sms.ts';

/**
 * Africa's Talking's voice service (docs/decisions/0087): calls are answered with XML built by
 * `voiceResponse`, and `dial` asks the gateway to call a farmer (`POST …/call`, a form with `username`,
 * `to`, `from`, the `apiKey` header), whose answer reaches the same callback. Without a gateway URL the
 * log transport only logs the number (development).
 */
export interface VoiceCalls {
  readonly kind: 'gateway' | 'log';
  /** Asks the gateway to call `to` from Kutu's number; resolves with its session id. */
  dial(to: string): Promise<{ sessionId: string | null }>;
}

interface Logger {
  info(obj: object, msg: string): void;
}

/** Africa's Talking's answer to a call request (its voice API reference). */
interface AtCallReply {
  entries?: { phoneNumber?: string; status?: string; sessionId?: string }[];
  errorMessage?: string;
}

export function createVoiceCalls(opts: {
  apiUrl?: string;
  apiKey?: string;
  username?: string;
  /** Kutu's Africa's Talking voice number, the caller id of every call it places. */
  from?: string;
  timeoutMs?: number;
  log?: Logger;
  fetchImpl?: typeof fetch;
}): VoiceCalls {
  const doFetch = opts.fetchImpl ?? fetch;
  if (!opts.apiUrl) {
    return {
      kind: 'log',
      async dial(to) {
        opts.log?.info({ to }, 'voice call (log transport: not placed)');
        return { sessionId: null };
      },
    };
  }
  const url = opts.apiUrl;
  return {
    kind: 'gateway',
    async dial(to) {
      const res = await doFetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
          apiKey: opts.apiKey ?? '',
        },
        body: new URLSearchParams({ username: opts.username ?? '', to, from: opts.from ?? '' }),
        signal: AbortSignal.timeout(opts.timeoutMs ?? DEFAULT_GATEWAY_TIMEOUT_MS),
      });
      const body = (await res.json().catch(() => null)) as AtCallReply | null;
      const entry = body?.entries?.[0];
      if (!res.ok || !entry || entry.status !== 'Queued') {
        const why = body?.errorMessage && body.errorMessage !== 'None' ? body.errorMessage : entry?.status;
        throw new Error(`voice gateway did not place the call: ${res.status} ${why ?? ''}`.trim());
      }
      return { sessionId: entry.sessionId ?? null };
    },
  };
}

/** One action of a call's answer, as Africa's Talking's voice XML names them. */
export type VoiceAction =
  | { say: string; voice?: 'man' | 'woman' }
  | { play: string }
  | {
      getDigits: { numDigits: number; timeoutSeconds: number; callbackUrl: string; finishOnKey?: string };
      /** Played while the gateway waits for a key: a key pressed stops it. */
      prompt: ({ say: string } | { play: string })[];
    }
  | {
      record: { maxLengthSeconds: number; timeoutSeconds: number; callbackUrl: string; playBeep?: boolean };
      prompt: ({ say: string } | { play: string })[];
    };

const xmlEscape = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);

function element(tag: string, attributes: Record<string, string | number | boolean | undefined>, inner = ''): string {
  const attrs = Object.entries(attributes)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => ` ${k}="${xmlEscape(String(v))}"`)
    .join('');
  return inner ? `<${tag}${attrs}>${inner}</${tag}>` : `<${tag}${attrs}/>`;
}

function action(a: VoiceAction): string {
  if ('say' in a) return element('Say', { voice: a.voice }, xmlEscape(a.say));
  if ('play' in a) return element('Play', { url: a.play });
  if ('getDigits' in a) {
    const g = a.getDigits;
    return element(
      'GetDigits',
      { numDigits: g.numDigits, timeout: g.timeoutSeconds, finishOnKey: g.finishOnKey, callbackUrl: g.callbackUrl },
      a.prompt.map(action).join(''),
    );
  }
  const r = a.record;
  return element(
    'Record',
    { maxLength: r.maxLengthSeconds, timeout: r.timeoutSeconds, playBeep: r.playBeep, callbackUrl: r.callbackUrl },
    a.prompt.map(action).join(''),
  );
}

/** A call's answer: the gateway runs the actions in order (`<Response/>` ends the call). */
export const voiceResponse = (actions: VoiceAction[]): string =>
  `<?xml version="1.0" encoding="UTF-8"?><Response>${actions.map(action).join('')}</Response>`;
