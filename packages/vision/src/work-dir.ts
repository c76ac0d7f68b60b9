/**
 * The work folder of a training run (TrainOptions.workDir): the shared feature cache's name, and the sweep
 * that removes what killed runs left behind.
 */
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { packageRoot } from './dataset.ts';

/**
 * A folder under the OS temp dir for what depends only on the backbone, its input size and the negatives,
 * named by their content, so retraining jobs and tests compute it once per backbone.
 */
export async function sharedFeatureCache(
  nonLeaf: { file: string }[],
  backbone: string,
  size: number,
  workDir: string,
  runtime: 'node' | 'python',
): Promise<string> {
  const hash = crypto.createHash('sha256').update(`${backbone} ${size} ${runtime}`);
  const sources = runtime === 'python' ? [path.join(packageRoot, 'trainer/mobilenet.py')] : [];
  for (const file of [...sources, ...nonLeaf.map((i) => i.file)]) {
    hash.update(file).update(await fs.readFile(file));
  }
  return path.join(workDir, `kutu-feature-cache-${hash.digest('hex').slice(0, 16)}`);
}

/** `<pid>@<host>`: which process owns a work folder, so a sweep never removes a live run's files. */
export const owner = () => `${process.pid}@${os.hostname()}`;
/** A work folder a run removes when it ends, unless killed: its owner is in the name. */
const WORK_IN_PROGRESS = /^kutu-(?:train-|feature-cache-[0-9a-f]+\.partial-)(\d+)@(.*?)@/;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes what killed runs left in `workDir` (half-written feature caches, the trainer's scratch folders):
 * those of this machine whose process is gone, or is this one (a fresh start: nothing of it runs yet).
 * Other machines' folders (a shared DATA_DIR) are theirs to sweep. Returns the names removed.
 */
export async function sweepWorkDir(workDir: string): Promise<string[]> {
  const names = await fs.readdir(workDir).catch(() => [] as string[]);
  const removed: string[] = [];
  for (const name of names) {
    const m = WORK_IN_PROGRESS.exec(name);
    if (!m || m[2] !== os.hostname()) continue;
    const pid = Number(m[1]);
    if (pid !== process.pid && alive(pid)) continue;
    await fs.rm(path.join(workDir, name), { recursive: true, force: true });
    removed.push(name);
  }
  return removed;
}
