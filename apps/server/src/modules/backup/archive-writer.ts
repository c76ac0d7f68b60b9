import { spawn } from 'node:child_process';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { type Manifest, verifyArchive, writeArchive } from './archive.ts';

/** What the writer is given: the staged folder, the archive to write, the manifest's fields, whether to read it back. */
interface Job {
  staging: string;
  out: string;
  meta: Omit<Manifest, 'format' | 'version' | 'files'>;
  verify: boolean;
}

async function run(job: Job): Promise<Manifest> {
  const manifest = await writeArchive(job.staging, job.out, job.meta);
  if (job.verify) await verifyArchive(job.out);
  return manifest;
}

/**
 * Checksums, compresses and (with `verify`) reads back the archive in a child process at niceness `nice`
 * (BACKUP_NICE): the CPU-heavy part of a backup then yields to the server's requests rather than taking
 * its share beside them (bench/backup-under-load.ts). `nice` 0 writes in this process.
 */
export async function writeArchiveApart(job: Job, nice: number): Promise<Manifest> {
  if (nice <= 0) return run(job);
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), JSON.stringify(job)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (child.pid !== undefined) {
    try {
      os.setPriority(child.pid, nice);
    } catch {
      // Not allowed here (a container without the right): the child runs at the server's priority.
    }
  }
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => {
    out += d;
  });
  child.stderr.on('data', (d) => {
    err += d;
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  });
  if (code !== 0) throw new Error(err.trim().split('\n').at(-1) || `the archive writer stopped (exit ${code})`);
  return JSON.parse(out) as Manifest;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    process.stdout.write(JSON.stringify(await run(JSON.parse(process.argv[2]!) as Job)));
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n`);
    process.exitCode = 1;
  }
}
