import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import * as tar from 'tar';
import { mkdirOwnerOnly, OWNER_FILE_MODE } from '../../lib/owner-only.ts';

/**
 * A backup archive: one gzip-compressed tar file. `manifest.json` comes first and names every other
 * file with its size and SHA-256; the database dump sits under `database/`, the stored objects (photos,
 * model files in shared storage) under `storage/`, the models folder of DATA_DIR under `models/`.
 */
export const MANIFEST = 'manifest.json';
export const FORMAT = 'kutu-backup';
export const FORMAT_VERSION = 1;

export interface ManifestFile {
  path: string;
  size: number;
  sha256: string;
}

/** What an archive holds, as its last line says it (accounts without the Former member, analyses, photo files). */
export interface Holdings {
  accounts: number;
  analyses: number;
  photos: number;
}

/** "12 accounts, 1 analysis, 30 photos". */
export function holdingsText(h: Holdings): string {
  const n = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;
  return `${n(h.accounts, 'account', 'accounts')}, ${n(h.analyses, 'analysis', 'analyses')}, ${n(h.photos, 'photo', 'photos')}`;
}

export interface Manifest {
  format: typeof FORMAT;
  version: number;
  created_at: string;
  /** Which database the dump is from; a restore goes to the same kind. */
  database: 'pglite' | 'postgres';
  /** `database/…`: the dump file inside the archive. */
  database_file: string;
  storage: 'local' | 's3';
  /** Absent in archives written before it was recorded. */
  holds?: Holdings;
  files: ManifestFile[];
}

/** Why an archive cannot be restored: corrupt, truncated, not a Kutu backup. Nothing was changed. */
export class BadArchiveError extends Error {
  override name = 'BadArchiveError';
}

async function sha256OfFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
}

/** Every file under `dir` (relative, `/`-separated), sorted. */
async function filesUnder(dir: string): Promise<string[]> {
  const names = await fs.readdir(dir, { recursive: true, withFileTypes: true });
  return names
    .filter((d) => d.isFile())
    .map((d) => path.relative(dir, path.join(d.parentPath, d.name)).split(path.sep).join('/'))
    .sort();
}

/**
 * Writes the staged folder (database/, storage/, models/) as one archive at `out`, with a manifest of
 * every file's checksum. Written beside `out` and renamed, so `out` is never half an archive.
 */
export async function writeArchive(
  staging: string,
  out: string,
  meta: Omit<Manifest, 'format' | 'version' | 'files'>,
): Promise<Manifest> {
  const files: ManifestFile[] = [];
  for (const rel of await filesUnder(staging)) {
    const full = path.join(staging, rel);
    files.push({ path: rel, size: (await fs.stat(full)).size, sha256: await sha256OfFile(full) });
  }
  const manifest: Manifest = { format: FORMAT, version: FORMAT_VERSION, ...meta, files };
  await fs.writeFile(path.join(staging, MANIFEST), JSON.stringify(manifest, null, 2));
  await mkdirOwnerOnly(path.dirname(path.resolve(out)));
  const partial = `${out}.partial`;
  try {
    // Made 0600 before a byte is in it (tar keeps the mode of a file it overwrites), whatever the umask.
    await fs.writeFile(partial, '', { mode: OWNER_FILE_MODE });
    await fs.chmod(partial, OWNER_FILE_MODE);
    // Photos and the PGlite dump are compressed already: the fastest level saves CPU, not bytes.
    await tar.create({ gzip: { level: 1 }, file: partial, cwd: staging, portable: true, noDirRecurse: true }, [
      MANIFEST,
      ...files.map((f) => f.path),
    ]);
    await fs.rename(partial, out);
  } catch (err) {
    await fs.rm(partial, { force: true });
    throw err;
  }
  return manifest;
}

function parseManifest(text: string): Manifest {
  let m: Manifest;
  try {
    m = JSON.parse(text) as Manifest;
  } catch {
    throw new BadArchiveError('its manifest is not readable JSON');
  }
  if (m?.format !== FORMAT || !Array.isArray(m.files)) throw new BadArchiveError('it is not a Kutu backup');
  if (m.version > FORMAT_VERSION) {
    throw new BadArchiveError(`it was written by a newer Kutu (backup format ${m.version}); update Kutu first`);
  }
  return m;
}

/**
 * Reads the whole archive once and checks it against its manifest: every file present with its size
 * and SHA-256, nothing extra, the archive complete. Throws BadArchiveError with the reason; reads only.
 */
export async function verifyArchive(file: string): Promise<Manifest> {
  try {
    await fs.access(file);
  } catch {
    throw new BadArchiveError(`${file} does not exist or cannot be read`);
  }
  const seen = new Map<string, { size: number; sha256: string }>();
  let manifestText: string | null = null;
  const reading: Promise<void>[] = [];
  try {
    await tar.list({
      file,
      strict: true,
      onReadEntry: (entry) => {
        const name = entry.path.replace(/^\.\//, '');
        const hash = createHash('sha256');
        const chunks: Buffer[] = [];
        let size = 0;
        entry.on('data', (chunk: Buffer) => {
          size += chunk.length;
          hash.update(chunk);
          if (name === MANIFEST) chunks.push(chunk);
        });
        reading.push(
          new Promise((resolve) =>
            entry.on('end', () => {
              if (name === MANIFEST) manifestText = Buffer.concat(chunks).toString('utf8');
              else if (entry.type === 'File') seen.set(name, { size, sha256: hash.digest('hex') });
              resolve();
            }),
          ),
        );
      },
    });
    await Promise.all(reading);
  } catch (err) {
    const why = (err as NodeJS.ErrnoException).code === 'Z_BUF_ERROR' ? 'it ends too early (truncated)' : null;
    throw new BadArchiveError(why ?? `it is damaged (${(err as Error).message})`);
  }
  if (manifestText === null) {
    throw new BadArchiveError(seen.size ? 'it has no manifest' : 'it is empty or not a backup archive');
  }
  const manifest = parseManifest(manifestText);
  const missing = manifest.files.filter((f) => !seen.has(f.path));
  if (missing.length) {
    throw new BadArchiveError(
      `${missing.length} of its ${manifest.files.length} files are missing (truncated?), e.g. ${missing[0]!.path}`,
    );
  }
  const wrong = manifest.files.filter((f) => {
    const s = seen.get(f.path)!;
    return s.size !== f.size || s.sha256 !== f.sha256;
  });
  if (wrong.length) {
    throw new BadArchiveError(`${wrong.length} files do not match their checksums (corrupt), e.g. ${wrong[0]!.path}`);
  }
  const listed = new Set(manifest.files.map((f) => f.path));
  const extra = [...seen.keys()].filter((p) => !listed.has(p));
  if (extra.length) throw new BadArchiveError(`it holds files its manifest does not list, e.g. ${extra[0]}`);
  return manifest;
}

/** Unpacks a verified archive into `dir`, then checks each file there against the manifest once more. */
export async function extractArchive(file: string, dir: string, manifest: Manifest): Promise<void> {
  await fs.mkdir(dir, { recursive: true });
  await tar.extract({ file, cwd: dir, strict: true, preservePaths: false });
  for (const f of manifest.files) {
    if ((await sha256OfFile(path.join(dir, f.path))) !== f.sha256) {
      throw new BadArchiveError(`${f.path} changed while it was unpacked`);
    }
  }
}
