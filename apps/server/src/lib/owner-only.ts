import fs from 'node:fs/promises';
import path from 'node:path';

/** Folders and files of DATA_DIR and BACKUP_DIR: the owner's alone (docs/decisions/0125). */
export const OWNER_DIR_MODE = 0o700;
export const OWNER_FILE_MODE = 0o600;
/** Files the process creates: no bits for group or others, whatever umask it was started with. */
export const OWNER_UMASK = 0o077;

const gone = (err: unknown) => (err as NodeJS.ErrnoException).code === 'ENOENT';

/**
 * Makes every folder under `root` (itself included) 0700 and every file 0600; symbolic links are left
 * alone and not followed. PGlite writes the files of a new or loaded data directory 0666 whatever the
 * umask (its WebAssembly file system sets the mode it was asked for), so the server runs this over its
 * data directory after opening it, and over what a restore brought back. Returns how many modes it
 * changed; a missing root is nothing to do; an entry that vanishes while it walks is skipped.
 */
export async function makeOwnerOnly(root: string): Promise<number> {
  let changed = 0;
  const visit = async (p: string): Promise<void> => {
    let stat: Awaited<ReturnType<typeof fs.lstat>>;
    try {
      stat = await fs.lstat(p);
    } catch (err) {
      if (gone(err)) return;
      throw err;
    }
    if (stat.isSymbolicLink()) return;
    const wanted = stat.isDirectory() ? OWNER_DIR_MODE : OWNER_FILE_MODE;
    if ((stat.mode & 0o777) !== wanted) {
      try {
        await fs.chmod(p, wanted);
        changed += 1;
      } catch (err) {
        if (!gone(err)) throw err;
      }
    }
    if (!stat.isDirectory()) return;
    const names = await fs.readdir(p).catch((err: unknown) => {
      if (gone(err)) return [] as string[];
      throw err;
    });
    for (const name of names) await visit(path.join(p, name));
  };
  await visit(root);
  return changed;
}

/** Creates `dir` (and missing parents) 0700 if it is missing; an existing folder keeps its mode. */
export async function mkdirOwnerOnly(dir: string): Promise<void> {
  await fs.mkdir(dir, { recursive: true, mode: OWNER_DIR_MODE });
}
