import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3Server, type S3Server } from '../../test/support/s3.ts';
import { createLocalStorage, type FileStorage } from './storage.ts';
import { createStorage, parseStorageUrl } from './storage-url.ts';
import { createS3Storage } from './s3-storage.ts';

const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4, 0xff, 0xd9]);

describe('storage adapters', () => {
  let s3: S3Server;
  let dir: string;
  beforeAll(async () => {
    s3 = await startS3Server();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kutu-storage-'));
  });
  afterAll(async () => {
    await s3.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const adapters: [string, () => FileStorage][] = [
    ['local disk', () => createLocalStorage(path.join(dir, 'uploads'))],
    ['S3 (s3rver)', () => s3.storage()],
    ['S3 with a key prefix', () => s3.storage('tenant-a/')],
  ];

  it.each(adapters)('%s: put, stream, get, exists, list, local copy and remove', async (_name, make) => {
    const storage = make();
    await storage.check();
    const key = await storage.put('analyses/2026/11', JPEG, 'jpg');
    expect(key).toMatch(/^analyses\/2026\/11\/[0-9a-f-]{36}\.jpg$/);
    expect(await storage.exists(key)).toBe(true);

    const { body, contentType, size } = await storage.stream(key);
    expect(contentType).toBe('image/jpeg');
    expect(size).toBe(JPEG.length);
    expect(Buffer.concat((await body.toArray()) as Buffer[]).equals(JPEG)).toBe(true);
    expect((await storage.get(key)).equals(JPEG)).toBe(true);

    const png = await storage.put('analyses/2026/11', Buffer.from('png bytes'), 'png');
    expect((await storage.stream(png)).contentType).toBe('image/png');
    const listed = await storage.list('analyses');
    expect(listed.map((f) => f.key).sort()).toEqual([key, png].sort());
    for (const f of listed) expect(Date.now() - f.modifiedAt.getTime()).toBeLessThan(60_000);
    expect(await storage.list('posts')).toEqual([]);

    const copy = await storage.localCopy(key, path.join(dir, 'scratch'));
    expect(copy && fs.readFileSync(copy).equals(JPEG)).toBe(true);

    await storage.remove(key);
    await storage.remove(key); // a missing object is not an error
    expect(await storage.exists(key)).toBe(false);
    await expect(storage.stream(key)).rejects.toThrow();
    expect(await storage.localCopy(key, path.join(dir, 'scratch'))).toBeNull();
    await storage.remove(png);
  });

  it('keeps prefixed tenants apart and refuses keys that climb out', async () => {
    const a = s3.storage('tenant-a/');
    const b = s3.storage('tenant-b/');
    const key = await a.put('posts', JPEG, 'jpg');
    expect(await b.exists(key)).toBe(false);
    expect(await a.exists(key)).toBe(true);
    await expect(a.get('../tenant-b/x.jpg')).rejects.toThrow('Invalid storage key');
    await expect(createLocalStorage(dir).get('../etc/passwd')).rejects.toThrow('Invalid storage key');
  });

  it('readiness fails for a bucket that does not exist or a server that does not answer', async () => {
    const missing = createS3Storage({
      bucket: 'no-such-bucket',
      endpoint: s3.endpoint,
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    });
    await expect(missing.check()).rejects.toThrow();
    const down = createS3Storage({
      bucket: s3.bucket,
      endpoint: 'http://127.0.0.1:1',
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    });
    await expect(down.check()).rejects.toThrow();
  });

  it('STORAGE_URL chooses the adapter and never holds credentials', () => {
    expect(parseStorageUrl(undefined, '/data')).toEqual({ kind: 'local', root: '/data/uploads' });
    expect(parseStorageUrl('file:///srv/kutu', '/data')).toEqual({ kind: 'local', root: '/srv/kutu' });
    expect(
      parseStorageUrl('s3://photos/kutu?endpoint=http://minio:9000&region=af-south-1&forcePathStyle=true', '/d'),
    ).toEqual({
      kind: 's3',
      bucket: 'photos',
      prefix: 'kutu/',
      endpoint: 'http://minio:9000',
      region: 'af-south-1',
      forcePathStyle: true,
    });
    expect(parseStorageUrl('s3://photos', '/d')).toMatchObject({ prefix: '', forcePathStyle: false });
    expect(() => parseStorageUrl('s3://key:secret@photos', '/d')).toThrow('must not hold credentials');
    expect(() => parseStorageUrl('ftp://photos', '/d')).toThrow('s3:// or file://');
    expect(createStorage(undefined, dir).kind).toBe('local');
    expect(createStorage(s3.url, dir).kind).toBe('s3');
  });
});
