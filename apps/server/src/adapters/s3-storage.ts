import fs from 'node:fs/promises';
import { createWriteStream } from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { contentTypeOf, type FileStorage, newKey } from './storage.ts';

export interface S3StorageOptions {
  bucket: string;
  /** Prepended to every key (`kutu/` to share a bucket); empty by default. */
  prefix?: string;
  region?: string;
  /** An S3-compatible service's URL (MinIO, Ceph, a test server); AWS itself when absent. */
  endpoint?: string;
  forcePathStyle?: boolean;
  /** Explicit credentials; otherwise the AWS SDK's usual chain (AWS_ACCESS_KEY_ID … or an instance role). */
  credentials?: S3ClientConfig['credentials'];
}

const notFound = (err: unknown) => {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404;
};

/** Uploads in an S3-compatible bucket; each object is written once with its content type. */
export function createS3Storage(opts: S3StorageOptions): FileStorage & { client: S3Client } {
  const client = new S3Client({
    region: opts.region ?? 'us-east-1',
    endpoint: opts.endpoint,
    forcePathStyle: opts.forcePathStyle ?? Boolean(opts.endpoint),
    credentials: opts.credentials,
  });
  const Bucket = opts.bucket;
  const prefix = opts.prefix ?? '';
  const full = (key: string) => {
    if (key.split('/').some((part) => part === '..' || part === '') || key.startsWith('/')) {
      throw new Error('Invalid storage key');
    }
    return prefix + key;
  };
  const write = async (key: string, data: Buffer, contentType: string) => {
    await client.send(new PutObjectCommand({ Bucket, Key: full(key), Body: data, ContentType: contentType }));
  };
  const open = async (key: string) => {
    const out = await client.send(new GetObjectCommand({ Bucket, Key: full(key) }));
    return out;
  };

  return {
    kind: 's3',
    client,
    async put(folder, data, ext) {
      const key = newKey(folder, ext);
      await write(key, data, contentTypeOf(key));
      return key;
    },
    putKey: write,
    async get(key) {
      const out = await open(key);
      return Buffer.from(await out.Body!.transformToByteArray());
    },
    async stream(key) {
      const out = await open(key);
      return {
        body: out.Body as Readable,
        contentType: out.ContentType ?? contentTypeOf(key),
        size: out.ContentLength,
      };
    },
    async exists(key) {
      try {
        await client.send(new HeadObjectCommand({ Bucket, Key: full(key) }));
        return true;
      } catch (err) {
        if (notFound(err)) return false;
        throw err;
      }
    },
    async remove(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: full(key) }));
    },
    async list(folder) {
      const files: { key: string; modifiedAt: Date }[] = [];
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket, Prefix: folder === '' ? prefix : `${full(folder)}/`, ContinuationToken }),
        );
        for (const o of page.Contents ?? []) {
          if (o.Key) files.push({ key: o.Key.slice(prefix.length), modifiedAt: o.LastModified ?? new Date(0) });
        }
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
      return files;
    },
    async localCopy(key, scratchDir) {
      let out: Awaited<ReturnType<typeof open>>;
      try {
        out = await open(key);
      } catch (err) {
        if (notFound(err)) return null;
        throw err;
      }
      const file = path.join(scratchDir, key);
      await fs.mkdir(path.dirname(file), { recursive: true });
      await pipeline(out.Body as Readable, createWriteStream(file));
      return file;
    },
    async check() {
      await client.send(new HeadBucketCommand({ Bucket }));
    },
  };
}
