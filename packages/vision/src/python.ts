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
