import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';

/** An object as read from storage: its bytes as a stream, with what an HTTP reply needs. */
export interface StoredObject {
  body: Readable;
  contentType: string;
  size: number | undefined;
}

/**
 * Where uploaded images and retrained models live: the local disk (default) or an S3-compatible
 * bucket (STORAGE_URL, see storage-url.ts). Keys are relative paths such as `analyses/2026/abc.jpg`.
 * Every write, read and removal of uploads goes through this interface, so web processes on several
 * machines see the same files (docs/decisions/0021).
 */
export interface FileStorage {
  readonly kind: 'local' | 's3';
  /** Writes new bytes under `folder` with a fresh name; the content type follows from `ext`. */
  put(folder: string, data: Buffer, ext: string): Promise<string>;
  /** Writes bytes at an exact key (model files), replacing what is there. */
  putKey(key: string, data: Buffer, contentType: string): Promise<void>;
  /** The whole object (for the few callers that must hold it: copying a photo into a sample). */
  get(key: string): Promise<Buffer>;
  /** A stream of the object; rejects (before any byte is sent) when it does not exist. */
  stream(key: string): Promise<StoredObject>;
  exists(key: string): Promise<boolean>;
  /** Removes the object; a missing one is not an error. */
  remove(key: string): Promise<void>;
  /** Every object under a folder (recursively; `''`: the whole store), with its last change (orphan sweep, backups). */
  list(folder: string): Promise<{ key: string; modifiedAt: Date }[]>;
  /**
   * A file on this machine with the object's bytes, for tools that need a path (the trainer): the file
   * itself on local disk, otherwise a download into `scratchDir`. Null when the object does not exist.
   */
  localCopy(key: string, scratchDir: string): Promise<string | null>;
  /** Throws when the storage cannot be reached or written (readiness). */
  check(): Promise<void>;
}

const CONTENT_TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  json: 'application/json',
  onnx: 'application/octet-stream',
  mp3: 'audio/mpeg',
};

export function contentTypeOf(key: string): string {
  return CONTENT_TYPES[path.extname(key).slice(1).toLowerCase()] ?? 'application/octet-stream';
}

/** A fresh key under a folder: never reused, so objects are written once. */
export const newKey = (folder: string, ext: string) => path.posix.join(folder, `${randomUUID()}.${ext}`);

export interface LocalFileStorage extends FileStorage {
  readonly kind: 'local';
  /** The file of a key under the root (tests age files with it). */
  localPath(key: string): string;
}

export function createLocalStorage(root: string): LocalFileStorage {
  const resolve = (key: string) => {
    const full = path.resolve(root, key);
    if (!full.startsWith(path.resolve(root) + path.sep)) throw new Error('Invalid storage key');
    return full;
  };
  const write = async (key: string, data: Buffer) => {
    const full = resolve(key);
    await fs.mkdir(path.dirname(full), { recursive: true });
    // Written beside and renamed: a reader never sees half a file.
    const tmp = `${full}.${randomUUID()}.part`;
    await fs.writeFile(tmp, data);
    await fs.rename(tmp, full);
  };
  const exists = async (key: string) =>
    fs.stat(resolve(key)).then(
      (s) => s.isFile(),
      () => false,
    );
  return {
    kind: 'local',
    async put(folder, data, ext) {
      const key = newKey(folder, ext);
      await write(key, data);
      return key;
    },
    putKey: async (key, data) => write(key, data),
    get: async (key) => fs.readFile(resolve(key)),
    async stream(key) {
      const full = resolve(key);
      const stat = await fs.stat(full);
      return { body: createReadStream(full), contentType: contentTypeOf(key), size: stat.size };
    },
    exists,
    async remove(key) {
      await fs.rm(resolve(key), { force: true });
    },
    localPath: resolve,
    localCopy: async (key) => ((await exists(key)) ? resolve(key) : null),
    async list(folder) {
      const dir = folder === '' ? path.resolve(root) : resolve(folder);
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
    async check() {
      await fs.mkdir(root, { recursive: true });
      await fs.access(root, fs.constants.W_OK);
    },
  };
}
