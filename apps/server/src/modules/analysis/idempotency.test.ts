import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyses, notifications } from '../../db/schema/index.ts';
import { committedClassifier, createTestApp, type TestContext } from '../../../test/support/app.ts';
import { createUser, type TestUser } from '../../../test/support/users.ts';
import { createClassifierHolder } from '../../adapters/classifier.ts';
import { fixture, multipart } from '../../../test/support/photos.ts';
import { analysisApi } from '@kutu/contract';

const DETECT = analysisApi.detect;

/** A photo diagnosed offline is queued with one key for life; its uploads may repeat but count once. */
describe('analysis upload with an Idempotency-Key', () => {
  let t: TestContext;
  let farmer: TestUser;
  let otherFarmer: TestUser;

  beforeAll(async () => {
    t = await createTestApp({ classifier: createClassifierHolder(await committedClassifier()) });
    farmer = await createUser(t, 'farmer');
    otherFarmer = await createUser(t, 'farmer');
  });
  afterAll(() => t.close());

  const upload = (user: TestUser, key: string | undefined, photo = 'maize-common-rust.jpg') => {
    const form = multipart([{ filename: photo, data: fixture(photo) }], { crop: 'maize' });
    return t.app.inject({
      method: 'POST',
      url: DETECT,
      payload: form.payload,
      headers: { ...form.headers, ...user.headers, ...(key === undefined ? {} : { 'idempotency-key': key }) },
    });
  };
  const rowsFor = (user: TestUser) => t.deps.database.db.select().from(analyses).where(eq(analyses.userId, user.id));
  const analysisNotices = async (user: TestUser, id: number) =>
    (
      await t.deps.database.db
        .select()
        .from(notifications)
        .where(and(eq(notifications.userId, user.id), eq(notifications.type, 'image_analysis')))
    ).filter((n) => (n.data as { analysis_id?: number }).analysis_id === id);

  it('makes one analysis for the same key sent twice: 201 first, then 200 with the same analysis', async () => {
    const key = '3f1c9a52-7d4e-4b8a-9c0f-1a2b3c4d5e6f';
    const first = await upload(farmer, key);
    expect(first.statusCode, first.body).toBe(201);
    const again = await upload(farmer, key, 'bean-rust.jpg');
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toEqual(first.json());
    const rows = (await rowsFor(farmer)).filter((r) => r.idempotencyKey === key);
    expect(rows).toHaveLength(1);
    expect(await analysisNotices(farmer, first.json().id)).toHaveLength(1);
  });

  it('makes one analysis when retries with one key race each other', async () => {
    const key = 'race-key-0123456789abcdef';
    const before = (await rowsFor(farmer)).length;
    const replies = await Promise.all([upload(farmer, key), upload(farmer, key), upload(farmer, key)]);
    expect(replies.map((r) => r.statusCode).sort()).toEqual([200, 200, 201]);
    expect(new Set(replies.map((r) => r.json().id)).size).toBe(1);
    expect((await rowsFor(farmer)).length).toBe(before + 1);
    expect(await analysisNotices(farmer, replies[0].json().id)).toHaveLength(1);
  });

  it("keeps another user's same key apart: their upload is their own new analysis", async () => {
    const key = 'shared-key-between-users-01';
    const mine = await upload(farmer, key);
    const theirs = await upload(otherFarmer, key);
    expect(mine.statusCode).toBe(201);
    expect(theirs.statusCode).toBe(201);
    expect(theirs.json().id).not.toBe(mine.json().id);
    const [row] = await t.deps.database.db.select().from(analyses).where(eq(analyses.id, theirs.json().id));
    expect(row).toMatchObject({ userId: otherFarmer.id, idempotencyKey: key });
  });

  it('still makes a new analysis for every upload without a key', async () => {
    const before = (await rowsFor(farmer)).length;
    expect((await upload(farmer, undefined)).statusCode).toBe(201);
    expect((await upload(farmer, undefined)).statusCode).toBe(201);
    expect((await rowsFor(farmer)).length).toBe(before + 2);
  });

  it.each([
    ['too short', 'abc'],
    ['with spaces', 'not a valid key at all!!'],
    ['too long', 'k'.repeat(129)],
    ['empty', ''],
  ])('refuses a key that is %s with a clear 400 and stores nothing', async (_case, key) => {
    const before = (await rowsFor(farmer)).length;
    const res = await upload(farmer, key);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toMatch(/Idempotency-Key must be 16 to 128 letters, digits/);
    expect((await rowsFor(farmer)).length).toBe(before);
  });
});
