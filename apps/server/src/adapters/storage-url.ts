import path from 'node:path';
import { createS3Storage } from './s3-storage.ts';
import { createLocalStorage, type FileStorage } from './storage.ts';

/**
 * STORAGE_URL → the storage adapter. Absent or `file:` → the local disk (`<DATA_DIR>/uploads` or
 * the path given). `s3://bucket[/prefix]?endpoint=…&region=…&forcePathStyle=true` → an
 * S3-compatible bucket; credentials come from the standard AWS variables (AWS_ACCESS_KEY_ID,
 * AWS_SECRET_ACCESS_KEY, or a role), never from the URL, so it can be logged.
 */
export function parseStorageUrl(url: string | undefined, dataDir: string) {
  if (!url) return { kind: 'local' as const, root: path.join(dataDir, 'uploads') };
  const u = new URL(url);
  if (u.protocol === 'file:') return { kind: 'local' as const, root: path.resolve(decodeURIComponent(u.pathname)) };
  if (u.protocol !== 's3:') throw new Error(`STORAGE_URL must start with s3:// or file:// (got ${u.protocol})`);
  if (!u.hostname) throw new Error('STORAGE_URL needs a bucket: s3://bucket');
  if (u.username || u.password) throw new Error('STORAGE_URL must not hold credentials; use AWS_ACCESS_KEY_ID');
  const prefix = u.pathname.replace(/^\/+/, '');
  return {
    kind: 's3' as const,
    bucket: u.hostname,
    prefix: prefix && !prefix.endsWith('/') ? `${prefix}/` : prefix,
    endpoint: u.searchParams.get('endpoint') ?? undefined,
    region: u.searchParams.get('region') ?? 'us-east-1',
    forcePathStyle: u.searchParams.has('forcePathStyle')
      ? u.searchParams.get('forcePathStyle') === 'true'
      : Boolean(u.searchParams.get('endpoint')),
  };
}

export function createStorage(url: string | undefined, dataDir: string): FileStorage {
  const parsed = parseStorageUrl(url, dataDir);
  return parsed.kind === 'local' ? createLocalStorage(parsed.root) : createS3Storage(parsed);
}
