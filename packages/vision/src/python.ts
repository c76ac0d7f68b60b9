import { spawn } from 'node:child_process';
import path from 'node:path';
import { packageRoot } from './dataset.ts';

/**
 * The Python side is one package rooted at packages/vision (pyproject.toml: trainer/, recipe/, provenance/,
 * research/). A module runs as `python3 -m trainer.train_head …` with that folder importable, never by file
 * path, so its imports are the package's own and no file edits sys.path.
 */
export function pythonEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return { ...env, PYTHONPATH: [packageRoot, env.PYTHONPATH].filter(Boolean).join(path.delimiter) };
}

/** Arguments and environment for `python3 -m <module> <args>`. */
export function pythonModule(module: string, args: string[] = [], env: NodeJS.ProcessEnv = process.env) {
  return { args: ['-m', module, ...args], env: pythonEnv(env) };
}

/** Read when a Python trainer starts (not at import), so a process can change KUTU_PYTHON first. */
const pythonPath = () => process.env.KUTU_PYTHON ?? '/usr/bin/python3';

export interface PythonRun {
  threads?: number;
  signal?: AbortSignal;
  /** Each JSON line the module prints (its progress events); other lines are ignored. */
  onEvent?: (event: unknown) => void;
}

/**
 * Runs `python3 -m <module> <args>` (a trainer) with `threads` threads, handing its JSON stdout lines to
 * `onEvent`; rejects with the last lines of its stderr when it fails.
 */
export function runPythonModule(module: string, moduleArgs: string[], opts: PythonRun): Promise<void> {
  return new Promise((resolve, reject) => {
    const threads = String(opts.threads ?? 2);
    const { args, env } = pythonModule(module, moduleArgs);
    const child = spawn(pythonPath(), args, {
      env: { ...env, OMP_NUM_THREADS: threads, MKL_NUM_THREADS: threads, KUTU_TRAIN_THREADS: threads },
      // stdin is a pipe the trainer watches: it exits when this process dies (trainer/parent_watch.py).
      stdio: ['pipe', 'pipe', 'pipe'],
      signal: opts.signal,
    });
    let stderr = '';
    let buffered = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        try {
          opts.onEvent?.(JSON.parse(line));
        } catch {
          // not a progress line
        }
      }
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-4000);
    });
    child.on('error', reject);
    child.on('close', (code, sig) => {
      if (code === 0) resolve();
      else reject(new Error(`trainer exited with ${sig ?? code}: ${stderr.trim().split('\n').slice(-3).join(' | ')}`));
    });
  });
}
