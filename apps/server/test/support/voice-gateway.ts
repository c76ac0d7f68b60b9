import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { voiceApi } from '@kutu/contract';
import type { TestContext } from './app.ts';

/** What one answer of the app told the gateway to do. */
export interface CallStep {
  /** `<Play url>` addresses, in order (those inside `<GetDigits>` first when it comes first). */
  played: string[];
  /** `<Say>` texts. */
  said: string[];
  /** The `<GetDigits>` of the answer: where a key goes, how many, and the addresses it plays while it waits. */
  getDigits: { callbackUrl: string; numDigits: number; played: string[] } | null;
  /** The key the caller pressed at this step (none: the call went on without one). */
  pressed: string | null;
  xml: string;
}

const attribute = (tag: string, name: string) => new RegExp(`${name}="([^"]*)"`).exec(tag)?.[1];
const xmlUnescape = (s: string) =>
  s.replace(/&(amp|lt|gt|quot|apos);/g, (_, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" })[e]!);

/** Reads an Africa's Talking voice answer as the gateway would: its Plays, Says and GetDigits, in order. */
export function readVoiceXml(xml: string): Omit<CallStep, 'pressed'> {
  if (!xml.startsWith('<?xml version="1.0" encoding="UTF-8"?><Response>') || !xml.endsWith('</Response>')) {
    throw new Error(`not a voice answer: ${xml.slice(0, 200)}`);
  }
  const played: string[] = [];
  const said: string[] = [];
  let getDigits: CallStep['getDigits'] = null;
  for (const m of xml.matchAll(/<(Play|Say|GetDigits)\b([^>]*?)(\/?)>(?:([^<]*)<\/Say>)?/g)) {
    const [, tag, attrs, , text] = m;
    if (tag === 'Play') played.push(xmlUnescape(attribute(attrs!, 'url') ?? ''));
    else if (tag === 'Say') said.push(xmlUnescape(text ?? ''));
    else {
      const inner = xml.slice(m.index! + m[0].length, xml.indexOf('</GetDigits>', m.index));
      getDigits = {
        callbackUrl: xmlUnescape(attribute(attrs!, 'callbackUrl') ?? ''),
        numDigits: Number(attribute(attrs!, 'numDigits')),
        played: [...inner.matchAll(/<Play url="([^"]*)"/g)].map((p) => xmlUnescape(p[1]!)),
      };
    }
  }
  return { played, said, getDigits, xml };
}

/**
 * Africa's Talking's voice service in a test, as it speaks to Kutu: a call comes in from `from` (the
 * callback with `isActive=1`), each `<GetDigits>` is answered with the next of `keys` at its callback
 * address (none left: the call goes on past it and ends), and the last request reports the call's end
 * (`isActive=0`). The callback addresses are the app's own (PUBLIC_URL), sent through `inject`.
 */
export async function placeCall(
  t: TestContext,
  opts: { from: string; keys: string[]; key: string; direction?: 'Inbound' | 'Outbound' },
): Promise<CallStep[]> {
  const sessionId = `ATVId_${Math.random().toString(36).slice(2)}`;
  const form = (extra: Record<string, string>) =>
    new URLSearchParams({
      isActive: '1',
      sessionId,
      direction: opts.direction ?? 'Inbound',
      callerNumber: opts.from,
      destinationNumber: '+254711082000',
      ...extra,
    }).toString();
  const post = async (url: string, extra: Record<string, string>) => {
    const res = await t.app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: form(extra),
    });
    if (res.statusCode !== 200) throw new Error(`voice callback answered ${res.statusCode}: ${res.body}`);
    if (!String(res.headers['content-type']).startsWith('application/xml')) throw new Error('not XML');
    return res.body;
  };
  const local = (url: string) => {
    const u = new URL(url);
    if (`${u.protocol}//${u.host}` !== t.deps.config.publicUrl) throw new Error(`callback to another host: ${url}`);
    return `${u.pathname}${u.search}`;
  };
  const steps: CallStep[] = [];
  const keys = [...opts.keys];
  let next: { url: string; extra: Record<string, string> } | null = {
    url: `${voiceApi.call}?key=${opts.key}`,
    extra: {},
  };
  while (next) {
    const step = readVoiceXml(await post(next.url, next.extra));
    const key = step.getDigits ? (keys.shift() ?? null) : null;
    steps.push({ ...step, pressed: key });
    next =
      step.getDigits && key !== null ? { url: local(step.getDigits.callbackUrl), extra: { dtmfDigits: key } } : null;
  }
  await post(`${voiceApi.call}?key=${opts.key}`, { isActive: '0', durationInSeconds: '42' });
  return steps;
}

/**
 * A local stand-in for Africa's Talking's call API (`POST /call`): a form with `username`, `to`, `from`
 * and the `apiKey` header, as the provider takes it; a wrong key is 401. Answers
 * `{entries:[{phoneNumber, status:'Queued', sessionId}], errorMessage:'None'}` and keeps each request.
 */
export async function startVoiceApi(opts: { username?: string; apiKey?: string } = {}) {
  const username = opts.username ?? 'sandbox';
  const apiKey = opts.apiKey ?? 'at-test-api-key';
  const calls: { to: string; from: string }[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d) => {
      body += d;
    });
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/call') return res.writeHead(404).end();
      if (req.headers.apikey !== apiKey) return res.writeHead(401).end('The supplied authentication is invalid');
      const form = new URLSearchParams(body);
      if (form.get('username') !== username) return res.writeHead(401).end('The supplied authentication is invalid');
      const to = form.get('to') ?? '';
      calls.push({ to, from: form.get('from') ?? '' });
      res.writeHead(201, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          entries: [{ phoneNumber: to, status: 'Queued', sessionId: `ATVId_${calls.length}` }],
          errorMessage: 'None',
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/call`,
    username,
    apiKey,
    calls,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
