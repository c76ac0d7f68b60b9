/**
 * The processes the send benches fork (bench/fanout.ts, bench/forecast-national.ts): the SMS gateway stub in a
 * process of its own (gateway-process.ts), as the real gateway is, and delivery worker processes
 * (fanout-worker.ts) that send the outbox's due rows to it in bulk.
 */
import { fork } from 'node:child_process';
import type { SenderOptions } from '../apps/server/src/modules/delivery/delivery.sender.ts';

/** What the stub got since its last reset: requests, recipients, numbers taken (once, more than once), SMS parts. */
export interface GatewayCounts {
  requests: number;
  recipients: number;
  taken: number;
  distinct: number;
  twice: number;
  parts: number;
}

/**
 * The gateway stub in a process of its own (gateway-process.ts), answering in `delayMs`: one question at a time
 * over IPC, each answered once.
 */
export async function forkGateway(delayMs: number) {
  const child = fork(new URL('./gateway-process.ts', import.meta.url), [], {
    env: { ...process.env, GATEWAY_DELAY_MS: String(delayMs) },
  });
  const answer = <T>() =>
    new Promise<T>((resolve, reject) => {
      const exited = (code: number | null) => reject(new Error(`the gateway stub exited (${code})`));
      child.once('exit', exited);
      child.once('message', (m) => {
        child.off('exit', exited);
        resolve(m as T);
      });
    });
  const ask = <T>(question: object) => {
    const answered = answer<T>();
    child.send(question);
    return answered;
  };
  const listening = await answer<{ url: string; username: string; apiKey: string }>();
  return {
    ...listening,
    setDelay: (ms: number) => ask({ delayMs: ms }),
    /** Requests, recipients, numbers taken (once, more than once) and SMS parts since the last reset. */
    counts: () => ask<GatewayCounts>({ counts: true }),
    reset: () => ask({ reset: true }),
    /** The posts it took (sent), for all numbers. */
    taken: async () => (await ask<{ taken: number }>({ taken: true })).taken,
    close: () => new Promise((resolve) => child.once('exit', resolve).send({ close: true })),
  };
}
export type Gateway = Awaited<ReturnType<typeof forkGateway>>;

/**
 * One delivery worker process (fanout-worker.ts), started and its database opened; `go()` sends every due row
 * and resolves with how many it handled and its peak RSS (a process's start is not in the send's time).
 * `clockOffsetMs` moves the worker's clock from the system's (rows written by a bench's set clock are due then).
 */
export async function forkWorker(
  databaseUrl: string,
  gateway: Pick<Gateway, 'url' | 'username' | 'apiKey'>,
  options: SenderOptions,
  clockOffsetMs = 0,
) {
  const child = fork(new URL('./fanout-worker.ts', import.meta.url), [], { env: process.env });
  const next = <T>() =>
    new Promise<T>((resolve, reject) => {
      const exited = (code: number | null) => reject(new Error(`a worker process exited (${code}) before its answer`));
      child.once('exit', exited);
      child.once('message', (m) => {
        child.off('exit', exited);
        resolve(m as T);
      });
    });
  const ready = next<{ ready: true }>();
  child.send({
    databaseUrl,
    gateway: { url: gateway.url, username: gateway.username, apiKey: gateway.apiKey },
    options,
    clockOffsetMs,
  });
  await ready;
  return {
    go() {
      const done = next<{ handled: number; ms: number; rss: number }>();
      child.send({ go: true });
      return done;
    },
  };
}
