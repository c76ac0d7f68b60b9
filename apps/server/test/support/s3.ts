import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { createS3Storage } from '../../src/adapters/s3-storage.ts';

/** s3rver's fixed credentials (it checks signatures like S3 does). */
export const S3_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

/**
 * A real S3-protocol server (s3rver: the S3 REST API with signature checks, objects on disk) on a
 * free loopback port, with one bucket. `storage()` is the app's S3 adapter pointed at it.
 */
export async function startS3Server(bucket = 'kutu-test') {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kutu-s3-'));
  const port = await freePort();
  const server = new S3rver({
    address: '127.0.0.1',
    port,
    silent: true,
    directory: dir,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    /** STORAGE_URL for a process (credentials through AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY: `env`). */
    url: `s3://${bucket}?endpoint=${encodeURIComponent(endpoint)}&region=us-east-1&forcePathStyle=true`,
    env: { AWS_ACCESS_KEY_ID: S3_CREDENTIALS.accessKeyId, AWS_SECRET_ACCESS_KEY: S3_CREDENTIALS.secretAccessKey },
    storage: (prefix?: string) =>
      createS3Storage({ bucket, prefix, endpoint, forcePathStyle: true, credentials: S3_CREDENTIALS }),
    async close() {
      await server.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
export type S3Server = Awaited<ReturnType<typeof startS3Server>>;
