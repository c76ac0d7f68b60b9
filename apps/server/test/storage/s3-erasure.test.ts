import { gunzipSync } from 'node:zlib';
import { HeadObjectCommand } from '@aws-sdk/client-s3';
import { unpackTar } from 'modern-tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analysisApi, privacyApi } from '@kutu/contract';
import { fixture, multipart } from '../support/photos.ts';
import { createTestApp, type TestContext } from '../support/app.ts';
import { startS3Server, type S3Server } from '../support/s3.ts';
import { createUser } from '../support/users.ts';

/** My data and erasure with an S3-compatible bucket (s3rver) as the only place photos are kept. */
describe('my data and erasure in S3 storage', () => {
  let s3: S3Server;
  let t: TestContext;
  const storage = () => t.deps.storage as ReturnType<S3Server['storage']>;
  beforeAll(async () => {
    s3 = await startS3Server();
    t = await createTestApp({ storage: s3.storage() });
  });
  afterAll(async () => {
    await t.close();
    await s3.close();
  });

  it("puts the bucket's photo bytes in the archive, and removes the objects at erasure", async () => {
    const farmer = await createUser(t, 'farmer');
    const form = multipart([{ filename: 'leaf.jpg', data: fixture('maize-common-rust.jpg') }]);
    const res = await t.app.inject({
      method: 'POST',
      url: analysisApi.detect,
      payload: form.payload,
      headers: { ...farmer.headers, ...form.headers },
    });
    expect(res.statusCode, res.body).toBe(201);
    const stored = (await storage().list('analyses')).map((f) => f.key);
    expect(stored).toHaveLength(2);

    const archive = await t.app.inject({ url: privacyApi.export, headers: farmer.headers });
    expect(archive.statusCode).toBe(200);
    const entries = await unpackTar(gunzipSync(archive.rawPayload));
    for (const key of stored) {
      const entry = entries.find((e) => e.header.name === `kutu-my-data/photos/${key.split('/').join('_')}`);
      expect(Buffer.from(entry?.data ?? []).equals(await storage().get(key))).toBe(true);
    }

    const erased = await t.app.inject({
      method: 'POST',
      url: privacyApi.deleteAccount,
      headers: farmer.headers,
      payload: { password: farmer.password },
    });
    expect(erased.statusCode, erased.body).toBe(200);
    for (const key of stored) {
      await expect(storage().client.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: key }))).rejects.toThrow();
    }
    expect(await storage().list('analyses')).toEqual([]);
  });
});
