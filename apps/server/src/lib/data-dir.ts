import fs from 'node:fs/promises';
import path from 'node:path';

/** Exit status when the server cannot start because of its settings (sysexits' EX_CONFIG). */
export const EXIT_CONFIG = 78;

function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms / 1000} s`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

const reason = (err: unknown) => {
  const e = err as NodeJS.ErrnoException;
  return e.code ? `${e.code} (${e.syscall ?? 'access'} ${e.path ?? ''})`.replace(' )', ')') : String(e.message ?? e);
};

/**
 * Makes sure DATA_DIR is a directory this process can write, creating it and missing parents. Not
 * with `fs.mkdir`'s recursive mode: under /proc it loops without end. Everything races a timeout so a
 * hung file system (a dead network mount) is reported instead of hanging the start.
 * Throws an Error whose message is one line that names the directory and the problem.
 */
export async function ensureWritableDataDir(dir: string, timeoutMs = 5000): Promise<void> {
  const fail = (problem: string) => new Error(`DATA_DIR ${dir} ${problem}`);
  await withTimeout(
    (async () => {
      const missing: string[] = [];
      let existing = dir;
      for (;;) {
        try {
          const stat = await fs.stat(existing);
          if (!stat.isDirectory()) {
            throw fail(existing === dir ? 'is a file, not a directory' : `cannot be created: ${existing} is a file`);
          }
          break;
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
          missing.unshift(existing);
          const parent = path.dirname(existing);
          if (parent === existing) break;
          existing = parent;
        }
      }
      for (const d of missing) {
        await fs.mkdir(d).catch((err: NodeJS.ErrnoException) => {
          if (err.code !== 'EEXIST') throw fail(`cannot be created: ${reason(err)}`);
        });
      }
      const probe = path.join(dir, `.write-test-${process.pid}`);
      try {
        await fs.writeFile(probe, 'ok');
        await fs.rm(probe, { force: true });
      } catch (err) {
        throw fail(`is not writable: ${reason(err)}`);
      }
    })().catch((err: Error) => {
      throw err.message.startsWith('DATA_DIR') ? err : fail(`cannot be used: ${reason(err)}`);
    }),
    timeoutMs,
    `DATA_DIR ${dir}`,
  );
}
