import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sweepWorkDir } from './work-dir.ts';

const SCRIPT = path.resolve(import.meta.dirname, '../test/start-node-refit.ts');

function waitForLine(child: ChildProcess, pattern: RegExp, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`no "${pattern}" within ${timeoutMs} ms: ${out}`)), timeoutMs);
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (pattern.test(out)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.on('exit', (code) => reject(new Error(`exited with ${code} before "${pattern}": ${out}`)));
  });
}

describe('work in progress under the work folder', () => {
  it('kill -9 during the feature stage leaves its work only in the work folder, and the sweep at start removes it', async () => {
    const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kutu-workdir-'));
    const child = spawn(process.execPath, [SCRIPT, workDir], { stdio: ['ignore', 'pipe', 'pipe'] });
    const live = spawn('sleep', ['60']);
    try {
      await waitForLine(child, /stage prepare/, 60_000);
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await exited;
      const pid = child.pid!;
      const host = os.hostname();
      const left = fs.readdirSync(workDir).sort();
      // A half-written feature cache and the run's scratch folder, named by their (dead) owner.
      expect(left).toEqual(
        expect.arrayContaining([
          expect.stringMatching(new RegExp(`^kutu-feature-cache-[0-9a-f]+\\.partial-${pid}@${host}@$`)),
          expect.stringMatching(new RegExp(`^kutu-train-${pid}@${host}@`)),
        ]),
      );
      // Nothing of that run in the system temp folder.
      expect(fs.readdirSync(os.tmpdir()).filter((n) => n.includes(`${pid}@`) || n.endsWith(`.partial-${pid}`))).toEqual(
        [],
      );
      // A live run's folder (another process of this machine) and another machine's stay.
      const liveRun = `kutu-train-${live.pid}@${host}@abc123`;
      const otherHost = `kutu-feature-cache-0123456789abcdef.partial-${pid}@another-host@`;
      const finished = 'kutu-feature-cache-0123456789abcdef';
      for (const name of [liveRun, otherHost, finished]) fs.mkdirSync(path.join(workDir, name));
      const removed = await sweepWorkDir(workDir);
      expect(removed.sort()).toEqual(left.filter((n) => n.startsWith('kutu-')));
      expect(fs.readdirSync(workDir).sort()).toEqual(
        [finished, liveRun, otherHost, ...left.filter((n) => !n.startsWith('kutu-'))].sort(),
      );
    } finally {
      child.kill('SIGKILL');
      live.kill('SIGKILL');
      fs.rmSync(workDir, { recursive: true, force: true });
    }
  }, 90_000);
});
