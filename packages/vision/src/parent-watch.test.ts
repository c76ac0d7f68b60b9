import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SCRIPT = path.resolve(import.meta.dirname, '../test/start-long-training.ts');

/** Pids of the processes whose parent is `ppid` and whose command line contains `needle` (from /proc). */
function childrenOf(ppid: number, needle: string): number[] {
  const found: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const cmd = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (parent === ppid && cmd.includes(needle)) found.push(Number(entry));
    } catch {
      // the process ended while we looked
    }
  }
  return found;
}

/** True while the process exists and is not a zombie. */
function alive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

async function waitFor(check: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return check();
}

// A kill -9 of the server during a retraining once left the Python trainer running (docs/decisions/0011).
describe.runIf(process.platform === 'linux')('the trainer and its parent', () => {
  it('ends the trainer within seconds when the process that started it is killed with SIGKILL', async () => {
    const parent = spawn(process.execPath, [SCRIPT], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    parent.stdout.on('data', (c: Buffer) => {
      output += c.toString();
    });
    parent.stderr.on('data', (c: Buffer) => {
      output += c.toString();
    });
    let trainer: number | undefined;
    try {
      // Training has started once the trainer reports its first stage.
      expect(await waitFor(() => output.includes('stage train'), 90_000), output).toBe(true);
      [trainer] = childrenOf(parent.pid!, 'trainer.train');
      expect(trainer, 'trainer process').toBeDefined();
      parent.kill('SIGKILL');
      expect(await waitFor(() => !alive(trainer!), 5_000), `trainer ${trainer} still running`).toBe(true);
    } finally {
      parent.kill('SIGKILL');
      if (trainer && alive(trainer)) process.kill(trainer, 'SIGKILL');
    }
  });
});
