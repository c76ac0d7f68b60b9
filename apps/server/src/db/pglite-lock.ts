import fs from 'node:fs';

/**
 * The embedded database (PGlite) is one process's: a second process that opens the same directory (the
 * server running while `npm run admin:create` adds an account) writes pages the first never reads, so the
 * account "exists" but cannot sign in until a restart. Whoever opens the directory leaves its process id
 * in `<dir>.lock` while it has it open; another process that finds a live holder there is refused.
 */
export class DatabaseInUseError extends Error {
  readonly pid: number;
  constructor(pid: number) {
    super(
      `The embedded database is open in another Kutu process (pid ${pid}, the server?): stop it first, then run this again (or set DATABASE_URL to use PostgreSQL).`,
    );
    this.pid = pid;
  }
}

const lockFile = (dir: string) => `${dir.replace(/[/\\]+$/, '')}.lock`;

/** The live process (other than this one) holding the directory, or null. */
export function pgliteHolder(dir: string): number | null {
  let pid: number;
  try {
    pid = Number(fs.readFileSync(lockFile(dir), 'utf8').trim());
  } catch {
    return null;
  }
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return null;
  try {
    process.kill(pid, 0);
    return pid;
  } catch (err) {
    // EPERM: alive, another user's; ESRCH: gone (a crash left the file behind).
    return (err as NodeJS.ErrnoException).code === 'EPERM' ? pid : null;
  }
}

/** Claims the directory for this process; throws DatabaseInUseError if a live one holds it. Returns the release. */
export function holdPgliteDir(dir: string): () => void {
  const holder = pgliteHolder(dir);
  if (holder !== null) throw new DatabaseInUseError(holder);
  const file = lockFile(dir);
  // Beside DATA_DIR's other files, the owner's alone (docs/decisions/0125); an older one keeps its mode otherwise.
  fs.writeFileSync(file, String(process.pid), { mode: 0o600 });
  fs.chmodSync(file, 0o600);
  return () => {
    try {
      if (fs.readFileSync(file, 'utf8').trim() === String(process.pid)) fs.rmSync(file);
    } catch {
      // Already gone.
    }
  };
}
