import { eq } from 'drizzle-orm';
import { HeadObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POST_RATE_LIMIT, analysisApi, communityApi, trainingApi } from '@kutu/contract';
import { posts } from '../../src/db/schema/index.ts';
import { sweepOrphanPhotos, ORPHAN_GRACE_MS } from '../../src/lib/orphan-photos.ts';
import { photoOwners } from '../../src/ports.ts';
import { fixture, multipart } from '../support/photos.ts';
import { createTestApp, type TestContext } from '../support/app.ts';
import { startS3Server, type S3Server } from '../support/s3.ts';
import { createUser, type TestUser } from '../support/users.ts';

const post = {
  title: 'Orange spots on maize leaves',
  content: 'Small orange pustules appeared on both sides of the leaves this week. What should I spray?',
  crop_type: 'MAIZE',
  disease_type: 'common_rust',
  urgency_level: 'high',
};

/** The whole upload flows with an S3-compatible bucket (s3rver) as the only place photos are kept. */
describe('uploads in S3 storage', () => {
  let s3: S3Server;
  let t: TestContext;
  let farmer: TestUser;
  const storage = () => t.deps.storage as ReturnType<S3Server['storage']>;
  beforeAll(async () => {
    s3 = await startS3Server();
    t = await createTestApp({ storage: s3.storage() });
    farmer = await createUser(t, 'farmer');
  });
  afterAll(async () => {
    await t.close();
    await s3.close();
  });

  const send = (user: TestUser, url: string, fields: Record<string, string> = {}) => {
    const form = multipart([{ filename: 'leaf.jpg', data: fixture('maize-common-rust.jpg') }], fields);
    return t.app.inject({ method: 'POST', url, payload: form.payload, headers: { ...user.headers, ...form.headers } });
  };
  const head = (key: string) => storage().client.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: key }));

  it('an analysis stores photo and heatmap in the bucket with their content types and serves them back', async () => {
    const res = await send(farmer, analysisApi.detect);
    expect(res.statusCode, res.body).toBe(201);
    const stored = await storage().list('analyses');
    expect(stored).toHaveLength(2);
    const types = await Promise.all(stored.map(async (f) => (await head(f.key)).ContentType));
    expect(types.sort()).toEqual(['image/jpeg', 'image/png']);

    const photo = await t.app.inject({ url: res.json().image_url, headers: farmer.headers });
    expect(photo.statusCode).toBe(200);
    expect(photo.headers['content-type']).toBe('image/jpeg');
    const jpegKey = stored.find((f) => f.key.endsWith('.jpg'))!.key;
    expect(photo.rawPayload.equals(await storage().get(jpegKey))).toBe(true);
    const heatmap = await t.app.inject({ url: res.json().heatmap_url, headers: farmer.headers });
    expect(heatmap.statusCode).toBe(200);
    expect(heatmap.rawPayload.subarray(1, 4).toString()).toBe('PNG');

    // Another farmer gets the same 404 as for a missing analysis; a removed object a clear 404.
    const other = await createUser(t, 'farmer');
    expect((await t.app.inject({ url: res.json().image_url, headers: other.headers })).statusCode).toBe(404);
    await storage().remove(jpegKey);
    const gone = await t.app.inject({ url: res.json().image_url, headers: farmer.headers });
    expect(gone.statusCode).toBe(404);
    expect(gone.json().error.message).toBe('The photo of this analysis is no longer stored');
  });

  it('a community post keeps its photo in the bucket; photos of refused posts are removed', async () => {
    const author = await createUser(t, 'farmer');
    const first = await send(author, communityApi.posts, post);
    expect(first.statusCode, first.body).toBe(201);
    const photo = await t.app.inject({ url: first.json().image, headers: author.headers });
    expect(photo.statusCode).toBe(200);
    expect(photo.headers['content-type']).toBe('image/jpeg');

    for (let i = 0; i < POST_RATE_LIMIT.max - 2; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: communityApi.posts,
        payload: post,
        headers: author.headers,
      });
      expect(res.statusCode).toBe(201);
    }
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => send(author, communityApi.posts, { ...post, title: `Question ${i}` })),
    );
    expect(results.map((r) => r.statusCode).filter((c) => c === 201)).toHaveLength(1);
    const rows = await t.deps.database.db.select().from(posts).where(eq(posts.authorId, author.id));
    const referenced = rows.flatMap((r) => (r.imagePath ? [r.imagePath] : [])).sort();
    expect(referenced).toHaveLength(2);
    expect((await storage().list('posts')).map((f) => f.key).sort()).toEqual(referenced);
  });

  it('a training sample is stored in the bucket and served to experts', async () => {
    const expert = await createUser(t, 'expert');
    const res = await send(expert, trainingApi.upload, { label: 'common_rust' });
    expect(res.statusCode, res.body).toBe(201);
    const [sample] = res.json().samples;
    expect(await storage().list('training')).toHaveLength(1);
    const image = await t.app.inject({ url: sample.image_url, headers: expert.headers });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/jpeg');
  });

  it('the orphan sweep removes bucket objects no row refers to, once past the grace period', async () => {
    const orphan = await storage().put('posts', fixture('maize-common-rust.jpg'), 'jpg');
    const before = (await storage().list('posts')).length;
    const now = new Date(Date.now() + ORPHAN_GRACE_MS + 60_000);
    // Within the grace period nothing goes.
    expect(
      await sweepOrphanPhotos({ db: t.deps.database.db, owners: photoOwners, storage: storage(), now: new Date() }),
    ).toEqual([]);
    const removed = await sweepOrphanPhotos({ db: t.deps.database.db, owners: photoOwners, storage: storage(), now });
    expect(removed).toEqual([orphan]);
    expect(await storage().exists(orphan)).toBe(false);
    expect((await storage().list('posts')).length).toBe(before - 1);
  });
});
