import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AnalysisResult, analysisApi } from '@kutu/contract';
import { cardSettings, defaultModelDir, fieldDiagnosis, readCard } from '@kutu/vision';
import { analyses, analysisPhotos, users } from '../../db/schema/index.ts';
import { createTestApp, type TestContext } from '../../../test/support/app.ts';
import { createUser, type TestUser } from '../../../test/support/users.ts';
import { fixture, uploadPhoto } from '../../../test/support/photos.ts';

/** Real photos of the repository's data set (datasets/rust3). */
const dataset = (file: string) =>
  fs.readFileSync(path.join(import.meta.dirname, '../../../../../datasets/rust3', file));
const rustLeaf = () => fixture('maize-common-rust.jpg');
const healthy = ['healthy/plantvillage__maize__healthy__0009.jpg', 'healthy/plantvillage__maize__healthy__0002.jpg'];

/**
 * A field answer's leaves (decisions 0062-one-leaf-counts-once and 0061-rust-on-any-leaf): a leaf already in
 * the answer is refused, and a rust leaf is never outvoted.
 */
describe('one leaf counts once; rust on any leaf is said', () => {
  let t: TestContext;
  let farmer: TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    farmer = await createUser(t, 'farmer');
  });
  afterAll(() => t.close());

  const post = (url: string, data: Buffer, fields?: Record<string, string>) =>
    uploadPhoto(t, farmer, url, data, fields);
  const analyse = async (data: Buffer, crop = 'maize'): Promise<AnalysisResult> => {
    const res = await post(analysisApi.detect, data, { crop });
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  };
  const rows = (id: number) =>
    t.deps.database.db.select().from(analysisPhotos).where(eq(analysisPhotos.analysisId, id));
  const photoCount = async (id: number) =>
    (await t.deps.database.db.select().from(analyses).where(eq(analyses.id, id)))[0].photoCount;

  it('refuses the same photo again, and its crop, mirror image and dimmer copy: no photo row is written', async () => {
    const photo = dataset('common_rust/ibean__bean__bean_rust__0002.jpg');
    const first = await analyse(photo, 'beans');
    const { width = 0, height = 0 } = await sharp(photo).metadata();
    const copies = {
      same: photo,
      crop: await sharp(photo)
        .extract({
          left: Math.round(width * 0.1),
          top: Math.round(height * 0.15),
          width: Math.round(width * 0.8),
          height: Math.round(height * 0.8),
        })
        .jpeg({ quality: 85 })
        .toBuffer(),
      mirror: await sharp(photo).flop().jpeg({ quality: 85 }).toBuffer(),
      dimmer: await sharp(photo).linear(0.6, 0).jpeg({ quality: 85 }).toBuffer(),
    };
    for (const [kind, data] of Object.entries(copies)) {
      const res = await post(analysisApi.photosPath(first.id), data);
      expect(res.statusCode, `${kind}: ${res.body}`).toBe(409);
      expect(res.json().error.message).toMatch(/leaf from another plant/);
    }
    expect(await rows(first.id)).toEqual([]);
    expect(await photoCount(first.id)).toBe(1);
    // In the farmer's language.
    await t.deps.database.db.update(users).set({ language: 'sw' }).where(eq(users.id, farmer.id));
    const sw = await post(analysisApi.photosPath(first.id), photo);
    expect(sw.json().error.message).toMatch(/mmea mwingine/);
    await t.deps.database.db.update(users).set({ language: 'en' }).where(eq(users.id, farmer.id));
    // A leaf of another plant of the same source joins.
    const other = await post(analysisApi.photosPath(first.id), dataset('common_rust/ibean__bean__bean_rust__0006.jpg'));
    expect(other.statusCode, other.body).toBe(200);
    expect(other.json().photos).toHaveLength(2);
    // The third leaf is compared with the added one too.
    const again = await post(analysisApi.photosPath(first.id), dataset('common_rust/ibean__bean__bean_rust__0006.jpg'));
    expect(again.statusCode).toBe(409);
    expect(await photoCount(first.id)).toBe(2);
  });

  it('says rust seen on 1 of 3 leaves with the rust advice where the sum alone said a sure "healthy"', async () => {
    const first = await analyse(rustLeaf());
    expect(first).toMatchObject({ rust_class: 'common_rust', unsure: false, rust_leaves: 1, leaf_count: 1 });
    let field: AnalysisResult = first;
    for (const name of healthy) {
      const res = await post(analysisApi.photosPath(first.id), dataset(name));
      expect(res.statusCode, res.body).toBe(200);
      field = res.json();
    }
    // What the leaves' sum alone says: a sure "healthy" (the outvoted rust leaf of the issue).
    const card = await readCard(defaultModelDir());
    const leaves = (await rows(first.id)).map((r) => ({
      probabilities: r.probabilities,
      leafScore: r.leafScore,
      oodScore: r.oodScore,
    }));
    const served = cardSettings(card);
    const sum = fieldDiagnosis(leaves, { ...served, answer: { ...served.answer, rustSeen: 'off' } }, card.version);
    expect(sum).toMatchObject({ rust_class: 'healthy', unsure: false });

    expect(field).toMatchObject({ rust_class: 'common_rust', unsure: true, rust_leaves: 1, leaf_count: 3 });
    expect(field.feedback.finding).toEqual({
      key: 'analysis.result.heading.rust_seen',
      values: { rust: { key: 'analysis.rustName.maize' }, count: '1', total: '3' },
    });
    // The rust advice (walk the field, count the plants with rust), not "take a clearer photo".
    expect(field.feedback.headline).toMatch(/^Rust on maize/);
    expect(field.feedback.advice.join(' ')).toMatch(/Walk the field/);
    expect(field.second_photo).toEqual({ reason: null, runner_up: null, photos_left: 0 });
    const stored = (await t.deps.database.db.select().from(analyses).where(eq(analyses.id, first.id)))[0];
    expect(stored.rustLeaves).toBe(1);
  });
});
