import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import path from 'node:path';
import { TRAINER_SCRIPT } from './training.ts';

const ROOT = path.resolve(import.meta.dirname, '../../../..');

export interface Proc {
  name: string;
  port: number;
  base: string;
  child: ChildProcess;
  /** Everything it wrote (JSON log lines). */
  output: () => string;
  exited: Promise<number | null>;
}

/** Starts a server entry (`apps/server/src/main.ts`, a worker) as its own Node process. */
export function startProcess(name: string, entry: string, port: number, env: Record<string, string>): Proc {
  let out = '';
  const child = spawn(process.execPath, [path.join(ROOT, entry)], {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d) => {
    out += d;
  });
  child.stderr?.on('data', (d) => {
    out += d;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { name, port, base: `http://127.0.0.1:${port}`, child, output: () => out, exited };
}

/** Waits until the process answers its readiness check (database, storage, model). */
export async function waitReady(p: Proc, timeoutMs = 90_000): Promise<{ checks: Record<string, string> }> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    if (p.child.exitCode !== null) throw new Error(`${p.name} exited:\n${p.output().slice(-3000)}`);
    try {
      const res = await fetch(`${p.base}/api/health/ready/`);
      last = await res.text();
      if (res.status === 200) return JSON.parse(last);
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${p.name} not ready: ${last}\n${p.output().slice(-3000)}`);
}

export async function stopProcess(p: Proc, signal: NodeJS.Signals = 'SIGTERM') {
  if (p.child.exitCode !== null || p.child.signalCode !== null) return;
  p.child.kill(signal);
  await p.exited;
}

/** Polls `fn` until it returns a truthy value. */
export async function eventually<T>(fn: () => Promise<T>, what: string, timeoutMs = 60_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const v = await fn();
      if (v) return v as NonNullable<T>;
    } catch (err) {
      last = err;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
}

/** Trainer processes (any trainer script) whose command line names `marker`. */
export function trainerProcesses(marker: string): string[] {
  const ps = execFileSync('ps', ['-eo', 'pid,ppid,args'], { encoding: 'utf8' });
  return ps.split('\n').filter((l) => TRAINER_SCRIPT.test(l) && l.includes(marker));
}

/** A minimal server-sent events reader over fetch: collects `event`/`data` pairs as they arrive. */
export function openEventStream(url: string) {
  const events: { event: string; data: unknown }[] = [];
  const controller = new AbortController();
  const opened = fetch(url, { signal: controller.signal }).then(async (res) => {
    if (res.status !== 200) throw new Error(`stream answered ${res.status}`);
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    void (async () => {
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) return;
          buffer += value;
          let end = buffer.indexOf('\n\n');
          while (end >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const event = /^event: (.*)$/m.exec(block)?.[1];
            const data = /^data: (.*)$/m.exec(block)?.[1];
            if (event && data) events.push({ event, data: JSON.parse(data) });
            end = buffer.indexOf('\n\n');
          }
        }
      } catch {
        // aborted
      }
    })();
  });
  return { events, opened, close: () => controller.abort() };
}
