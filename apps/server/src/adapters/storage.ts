import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

/** Where uploaded images live. Keys are relative paths such as `analyses/2026/abc.jpg`. */
export interface FileStorage {
  put(folder: string, data: Buffer, ext: string): Promise<string>;
  get(key: string): Promise<Buffer>;
  remove(key: string): Promise<void>;
  /** A local filesystem path for tools that need one (the trainer). */
  localPath(key: string): string;
  /** Every file under a folder (recursively), with its last change, for the orphan sweep. */
  list(folder: string): Promise<{ key: string; modifiedAt: Date }[]>;
}

export function createLocalStorage(root: string): FileStorage {
  const resolve = (key: string) => {
    const full = path.resolve(root, key);
    if (!full.startsWith(path.resolve(root) + path.sep)) throw new Error('Invalid storage key');
    return full;
  };
  return {
    async put(folder, data, ext) {
      const key = path.posix.join(folder, `${randomUUID()}.${ext}`);
      const full = resolve(key);
      await fs.mkdir(path.dirname(full), { recursive: true });
      await fs.writeFile(full, data);
      return key;
    },
    get: (key) => fs.readFile(resolve(key)),
    async remove(key) {
      await fs.rm(resolve(key), { force: true });
    },
    localPath: resolve,
    async list(folder) {
      const dir = resolve(folder);
      let names: string[];
      try {
        names = await fs.readdir(dir, { recursive: true });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
        throw err;
      }
      const files = [];
      for (const name of names) {
        const stat = await fs.stat(path.join(dir, name)).catch(() => null);
        if (stat?.isFile())
          files.push({ key: path.posix.join(folder, name.split(path.sep).join('/')), modifiedAt: stat.mtime });
      }
      return files;
    },
  };
}
