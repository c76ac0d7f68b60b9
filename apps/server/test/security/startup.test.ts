import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT_CONFIG } from '../../src/lib/data-dir.ts';

const MAIN = path.resolve(import.meta.dirname, '../../src/main.ts');

/** Starts the real server entry point; kills it if it has not exited after `killAfterMs`. */
function startServer(
  dataDir: string,
  env: Record<string, string> = {},
  killAfterMs = 120_000,
): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MAIN], {
      env: {
        ...process.env,
        NODE_ENV: 'development',
        DATA_DIR: dataDir,
        PORT: '0',
        JOBS: 'off',
        LOG_LEVEL: 'silent',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

// Loading the server's modules takes a few seconds, many more on a busy machine.
const slow = { timeout: 150_000 };

// A bad DATA_DIR once gave an unclear failure, and under /proc the server hung with no output.
describe('startup with a bad DATA_DIR', () => {
  it('fails fast with one clear line under /proc', slow, async () => {
    const { code, stderr } = await startServer('/proc/x');
    expect(code).toBe(EXIT_CONFIG);
    expect(stderr.trim().split('\n')).toEqual([
      'Kutu cannot start: DATA_DIR /proc/x cannot be created: ENOENT (mkdir /proc/x). Set DATA_DIR to a writable directory.',
    ]);
  });

  it('fails fast with one clear line when DATA_DIR is a file', slow, async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'kutu-startup-')), 'data');
    fs.writeFileSync(file, 'not a directory');
    try {
      const { code, stderr } = await startServer(file);
      expect(code).toBe(EXIT_CONFIG);
      expect(stderr.trim().split('\n')).toEqual([
        `Kutu cannot start: DATA_DIR ${file} is a file, not a directory. Set DATA_DIR to a writable directory.`,
      ]);
    } finally {
      fs.rmSync(path.dirname(file), { recursive: true, force: true });
    }
  });
});

// TRUST_PROXY=0.0.0.0/0 once passed the check, then crashed Fastify with a raw stack trace.
describe('startup with a bad setting', () => {
  it(
    'says what is wrong in a few lines, without a stack trace, and exits with the configuration status',
    slow,
    async () => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kutu-startup-'));
      try {
        for (const value of ['0.0.0.0/0']) {
          const { code, stderr } = await startServer(dataDir, { TRUST_PROXY: value }, 120_000);
          expect(code, stderr).toBe(EXIT_CONFIG);
          const lines = stderr.trim().split('\n');
          expect(lines[0]).toBe('Kutu cannot start: Invalid configuration:');
          expect(lines[1]).toMatch(/^ {2}TRUST_PROXY: /);
          expect(lines).toHaveLength(2);
          expect(stderr).not.toMatch(/\bat \S+ \(/);
        }
      } finally {
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    },
  );
});
