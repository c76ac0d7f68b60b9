import { vi } from 'vitest';

/** A request as the page sent it. */
export interface Sent {
  method: string;
  url: string;
  headers: Record<string, string>;
  /** A JSON body, parsed. */
  body: unknown;
  /** A multipart body (photo uploads). */
  form?: FormData;
}

/**
 * Stands in for the network (fetch), not for our code: answers each request with `answer`'s Response
 * (or its rejection, as a phone without signal gives) and records what the page sent, headers included.
 */
export function fakeNetwork(answer: (sent: Sent) => Response | Promise<Response>) {
  const sent: Sent[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const request = {
        method: init.method ?? 'GET',
        url: String(url),
        headers: (init.headers ?? {}) as Record<string, string>,
        body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
        form: init.body instanceof FormData ? init.body : undefined,
      };
      sent.push(request);
      return answer(request);
    }),
  );
  return sent;
}

/** A JSON reply. */
export const json = (body: unknown, status = 200) =>
  new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });

export interface Call {
  method: string;
  url: string;
  body: unknown;
}

/** fakeNetwork for JSON APIs: `reply` gives a status and a body; the calls are recorded without headers. */
export function fakeServer(reply: (call: Call) => { status: number; body?: unknown }) {
  const calls: Call[] = [];
  fakeNetwork(({ method, url, body }) => {
    const call = { method, url, body };
    calls.push(call);
    const answer = reply(call);
    return json(answer.body, answer.status);
  });
  return calls;
}

export const apiError = (status: number, code: string, message: string, fields?: Record<string, string>) => ({
  status,
  body: { error: { code, message, fields } },
});
