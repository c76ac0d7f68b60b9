import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AnalysisResult, analysisApi, MAX_FIELD_PHOTOS, reviewApi, waitsForExpert } from '@kutu/contract';
import { cardSettings, combineShares, defaultModelDir, readCard } from '@kutu/vision';
import { analyses, analysisPhotos, outbreakCases, users } from '../../db/schema/index.ts';
import { createTestApp, type TestContext } from '../../../test/support/app.ts';
import { createUser, type TestUser } from '../../../test/support/users.ts';
import { fieldAnswer } from './field-answer.ts';
import { fixture, multipart } from '../../../test/support/photos.ts';

/** The committed card's settings: the server under test serves it. */
const served = cardSettings(await readCard(defaultModelDir()));

const dataset = (file: string) =>
  fs.readFileSync(path.join(import.meta.dirname, '../../../../../datasets/rust3/other_disease', file));

/**
 * A second photo when unsure (docs/decisions/0040), with the committed model. Its
 * answers for the test photos: bean angular leaf spot "rust" 0.66 against other disease 0.31 (a close
 * call: the card's answer.closeMargin), maize rust 0.95 rust, maize healthy 0.95 healthy.
 */
describe('more photos of the same field', () => {
  let t: TestContext;
  let farmer: TestUser;
  let other: TestUser;
  let expert: TestUser;
  const db = () => t.deps.database.db;

  beforeAll(async () => {
    t = await createTestApp();
    farmer = await createUser(t, 'farmer');
    other = await createUser(t, 'farmer');
    expert = await createUser(t, 'expert');
    // Kumi: the farmer's rust cases count in a district (outbreak watch).
    await db().update(users).set({ district: 'UG-208' }).where(eq(users.id, farmer.id));
  });
  afterAll(() => t.close());

  const post = (
    url: string,
    user: TestUser | null,
    file: string | Buffer,
    fields?: Record<string, string>,
    extra: Record<string, string> = {},
  ) => {
    const data = typeof file === 'string' ? fixture(file) : file;
    const form = multipart([{ filename: 'leaf.jpg', data }], fields);
    return t.app.inject({
      method: 'POST',
      url,
      payload: form.payload,
      headers: { ...form.headers, ...(user?.headers ?? {}), ...extra },
    });
  };
  const analyse = async (file: string, user = farmer): Promise<AnalysisResult> => {
    const res = await post(analysisApi.detect, user, file, { crop: 'beans' });
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  };
  const addPhoto = (id: number, file: string | Buffer, user: TestUser | null = farmer) =>
    post(analysisApi.photosPath(id), user, file);
  const caseOf = async (id: number) =>
    (await db().select().from(outbreakCases).where(eq(outbreakCases.analysisId, id)))[0]?.state ?? 'none';
  const photoRows = (id: number) =>
    db().select().from(analysisPhotos).where(eq(analysisPhotos.analysisId, id)).orderBy(analysisPhotos.position);

  it('asks for another leaf when unsure or close, and says which class it came close to', async () => {
    const first = await analyse('bean-angular-leaf-spot.jpg');
    const [top, second] = Object.values(first.probabilities).sort((a, b) => b - a);
    // Rust 0.66 against other disease 0.31: below the served card's unsure cut (0.9, decision 0038).
    expect(first.unsure).toBe(true);
    expect(first.second_photo).toEqual({ reason: 'unsure', runner_up: 'other_disease', photos_left: 2 });
    expect(first.photos).toEqual([
      { position: 0, url: first.image_url, rust_class: first.rust_class, confidence: first.confidence },
    ]);
    // Under a card with a lower cut the same shares would be a confident answer, and a close one.
    expect(top - second).toBeLessThan(served.answer.closeMargin);
    await db().update(analyses).set({ unsure: false }).where(eq(analyses.id, first.id));
    const close = await t.app.inject({ method: 'GET', url: analysisApi.detailPath(first.id), headers: farmer.headers });
    expect(close.json().second_photo).toEqual({ reason: 'close', runner_up: 'other_disease', photos_left: 2 });
  });

  it('does not ask when the answer is sure, and still takes the other leaves of the field', async () => {
    const sure = await analyse('maize-common-rust.jpg');
    expect(sure.second_photo).toEqual({ reason: null, runner_up: null, photos_left: 2 });
    const res = await addPhoto(sure.id, 'bean-rust.jpg');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().photos).toHaveLength(2);
    expect(res.json().second_photo).toEqual({ reason: null, runner_up: null, photos_left: 1 });
  });

  it('takes no leaf for a photo that showed none', async () => {
    const grey = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#808080' } })
      .jpeg()
      .toBuffer();
    const res = await post(analysisApi.detect, farmer, grey, { crop: 'maize' });
    expect(res.json().outcome).toBe('not_leaf');
    expect(res.json().second_photo.photos_left).toBe(0);
    const more = await addPhoto(res.json().id, 'maize-common-rust.jpg');
    expect(more.statusCode).toBe(409);
    expect(more.json().error.message).toMatch(/no leaf/);
  });

  it('combines the photos into one field answer: summed tempered log shares, then the model rule; the case count follows', async () => {
    const first = await analyse('bean-angular-leaf-spot.jpg');
    // An unsure "rust" is no case in Kumi.
    expect(await caseOf(first.id)).toBe('none');

    const res = await addPhoto(first.id, 'maize-healthy.jpg');
    expect(res.statusCode, res.body).toBe(200);
    const field: AnalysisResult = res.json();
    expect(field.id).toBe(first.id);
    expect(field.photos.map((p) => [p.position, p.rust_class])).toEqual([
      [0, 'common_rust'],
      [1, 'healthy'],
    ]);
    expect(field.photos[1].url).toBe(analysisApi.photoPath(first.id, 1));

    const rows = await photoRows(first.id);
    expect(rows.map((r) => r.position)).toEqual([0, 1]);
    expect(rows[0].probabilities).toEqual(first.probabilities);
    const shares = combineShares(
      rows.map((r) => r.probabilities),
      served.answer.fieldTemper,
    );
    for (const [i, c] of ['common_rust', 'healthy', 'other_disease'].entries()) {
      expect(field.probabilities[c]).toBeCloseTo(shares[i], 6);
    }
    // Rust 0.32, healthy 0.48, other disease 0.20: the leaves disagree, healthy leads below the card's cut.
    expect(field.rust_class).toBe('healthy');
    expect(field.unsure).toBe(true);
    expect(field.second_photo).toEqual({ reason: 'unsure', runner_up: 'common_rust', photos_left: 1 });
    // Still no confident rust answer, so still no case.
    expect(await caseOf(first.id)).toBe('none');

    // Still one analysis, in history and in the expert's queue, with both photos.
    const history = await t.app.inject({ method: 'GET', url: analysisApi.list, headers: farmer.headers });
    const listed = (history.json().results as AnalysisResult[]).filter((a) => a.id === first.id);
    expect(listed).toHaveLength(1);
    expect(listed[0].photos).toHaveLength(2);
    const queue = await t.app.inject({
      method: 'GET',
      url: reviewApi.queue,
      query: { page_size: '50' },
      headers: expert.headers,
    });
    const items = (queue.json().results as { analysis: AnalysisResult }[]).filter((i) => i.analysis.id === first.id);
    expect(items).toHaveLength(1);
    expect(items[0].analysis.photos.map((p) => p.url)).toEqual([first.image_url, analysisApi.photoPath(first.id, 1)]);

    // The photos themselves: the owner and experts, nobody else.
    for (const [user, status] of [
      [farmer, 200],
      [expert, 200],
      [other, 404],
    ] as const) {
      const photo = await t.app.inject({ method: 'GET', url: field.photos[1].url, headers: user.headers });
      expect(photo.statusCode).toBe(status);
      if (status === 200) expect(photo.rawPayload.equals(fixture('maize-healthy.jpg'))).toBe(true);
    }
    const missing = await t.app.inject({
      method: 'GET',
      url: analysisApi.photoPath(first.id, 2),
      headers: farmer.headers,
    });
    expect(missing.statusCode).toBe(404);
  });

  it('turns an unsure answer into a confident rust case once the field photos agree', async () => {
    const newcomer = await createUser(t, 'farmer');
    const first = await analyse('maize-common-rust.jpg', newcomer);
    // As if the model had been unsure of this leaf (its own answer for the photo is sure).
    // Rust 0.88: just under the served card's unsure cut (0.9).
    const unsure = { common_rust: 0.88, healthy: 0.02, other_disease: 0.1 };
    await db()
      .update(analyses)
      .set({ probabilities: unsure, confidence: 0.88, unsure: true })
      .where(eq(analyses.id, first.id));
    // The farmer names their district only now: no case was counted for the upload.
    await db().update(users).set({ district: 'UG-208' }).where(eq(users.id, newcomer.id));
    expect(await caseOf(first.id)).toBe('none');
    const before = await t.app.inject({
      method: 'GET',
      url: analysisApi.detailPath(first.id),
      headers: newcomer.headers,
    });
    expect(before.json().second_photo).toEqual({ reason: 'unsure', runner_up: 'other_disease', photos_left: 2 });

    const res = await addPhoto(first.id, 'bean-rust.jpg', newcomer);
    expect(res.statusCode, res.body).toBe(200);
    const field: AnalysisResult = res.json();
    expect(field.rust_class).toBe('common_rust');
    expect(field.unsure).toBe(false);
    const added = (await photoRows(first.id))[1];
    // Two leaves that agree make a surer answer than either: 0.88 and 0.95 give about 0.97.
    expect(field.confidence).toBeCloseTo(combineShares([unsure, added.probabilities], served.answer.fieldTemper)[0], 6);
    expect(field.confidence).toBeGreaterThan(added.probabilities.common_rust);
    expect(await caseOf(first.id)).toBe('reported');
  });

  it('takes at most three photos, and only from the owner', async () => {
    const first = await analyse('bean-angular-leaf-spot.jpg');
    expect((await addPhoto(first.id, 'maize-healthy.jpg', other)).statusCode).toBe(404);
    expect((await addPhoto(first.id, 'maize-healthy.jpg', expert)).statusCode).toBe(403);
    expect((await addPhoto(first.id, 'maize-healthy.jpg', null)).statusCode).toBe(401);
    expect(await photoRows(first.id)).toHaveLength(0);

    expect((await addPhoto(first.id, 'maize-healthy.jpg')).statusCode).toBe(200);
    // Another bean angular leaf spot (datasets/rust3): not a sure rust leaf, which would be said instead.
    const third = await post(
      analysisApi.photosPath(first.id),
      farmer,
      dataset('ibean__bean__angular_leaf_spot__0002.jpg'),
    );
    expect(third.statusCode, third.body).toBe(200);
    const field: AnalysisResult = third.json();
    expect(field.photos).toHaveLength(MAX_FIELD_PHOTOS);
    expect(field.second_photo.photos_left).toBe(0);
    // Three leaves that disagree (rust 0.66 and other disease 0.89, both unsure; healthy 0.95): another disease
    // leads at about 0.60, below the card's 0.9 cut, so the field answer stays unsure and waits for an expert.
    expect(field).toMatchObject({ rust_class: 'other_disease', unsure: true, rust_leaves: 0, leaf_count: 3 });
    expect(waitsForExpert(field)).toBe(true);
    // It is in the experts' queue, unsure answers first: what the result tells the farmer is true.
    const queue = await t.app.inject({
      method: 'GET',
      url: reviewApi.queue,
      query: { page_size: '50' },
      headers: expert.headers,
    });
    const item = (queue.json().results as { analysis: AnalysisResult }[]).find((i) => i.analysis.id === first.id);
    expect(item?.analysis.photos).toHaveLength(3);

    // Even an answer made unsure again takes no fourth photo.
    await db().update(analyses).set({ unsure: true }).where(eq(analyses.id, first.id));
    const fourth = await addPhoto(first.id, 'maize-healthy.jpg');
    expect(fourth.statusCode).toBe(409);
    expect(fourth.json().error.message).toMatch(/3 photos/);
    expect(await photoRows(first.id)).toHaveLength(3);
  });

  it('adds a queued photo once when the phone sends it again with the same Idempotency-Key', async () => {
    const first = await analyse('bean-angular-leaf-spot.jpg');
    const key = { 'idempotency-key': 'queued-extra-photo-0001' };
    const url = analysisApi.photosPath(first.id);
    const [a, b] = await Promise.all([
      post(url, farmer, 'maize-healthy.jpg', undefined, key),
      post(url, farmer, 'maize-healthy.jpg', undefined, key),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    const again = await post(url, farmer, 'maize-healthy.jpg', undefined, key);
    expect(again.statusCode).toBe(200);
    expect(again.json().photos).toHaveLength(2);
    expect(await photoRows(first.id)).toHaveLength(2);
    // Another farmer's retry with the key learns nothing of the analysis.
    expect((await post(url, other, 'maize-healthy.jpg', undefined, key)).statusCode).toBe(404);
  });

  it('refuses a photo without a leaf or that is not an image, and keeps nothing of it', async () => {
    const first = await analyse('bean-angular-leaf-spot.jpg');
    const grey = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#808080' } })
      .jpeg()
      .toBuffer();
    const noLeaf = await addPhoto(first.id, grey);
    expect(noLeaf.statusCode).toBe(400);
    expect(noLeaf.json().error.message).toMatch(/could not find a leaf/);
    const notImage = await addPhoto(first.id, 'text-renamed.jpg');
    expect(notImage.statusCode).toBe(415);
    expect(await photoRows(first.id)).toHaveLength(0);
    const [row] = await db().select().from(analyses).where(eq(analyses.id, first.id));
    expect(row.photoCount).toBe(1);
    expect(row.probabilities).toEqual(first.probabilities);
  });
});

describe('fieldAnswer', () => {
  // The served card's cuts, with an unsure cut of 0.6 so the sums below stay easy to follow.
  const DEFAULT_THRESHOLDS = { ...served.thresholds, unsureBelow: 0.6 };
  const answer = (photos: Parameters<typeof fieldAnswer>[0], thresholds: typeof DEFAULT_THRESHOLDS) =>
    fieldAnswer(photos, { ...served, thresholds, version: 'v' });
  const photo = (rust: number, healthy: number, other: number, leafScore = 1, oodScore: number | null = null) => ({
    probabilities: { common_rust: rust, healthy, other_disease: other },
    leafScore,
    oodScore,
  });

  it('sums the log class shares of the leaves, tempered, and gives them to the model rule', () => {
    const a = answer([photo(0.45, 0.15, 0.4), photo(0.9, 0.05, 0.05)], DEFAULT_THRESHOLDS);
    expect(a.rust_class).toBe('common_rust');
    const [rust, healthy, other] = [0.45 * 0.9, 0.15 * 0.05, 0.4 * 0.05].map(
      (p) => p ** (served.answer.fieldTemper as number),
    );
    expect(a.confidence).toBeCloseTo(rust / (rust + healthy + other), 6);
    expect(a.unsure).toBe(false);
    expect(a.model_version).toBe('v');
  });

  it('stays unsure when the leaves disagree, and when their mean ood score is too far from the training leaves', () => {
    expect(answer([photo(0.8, 0.1, 0.1), photo(0.1, 0.1, 0.8)], DEFAULT_THRESHOLDS).unsure).toBe(true);
    const far = { ...DEFAULT_THRESHOLDS, oodUnsureAbove: 3 };
    const sure = [photo(0.9, 0.05, 0.05, 1, 2), photo(0.9, 0.05, 0.05, 1, 5)];
    expect(answer(sure, far).unsure).toBe(true);
    expect(answer(sure, { ...far, oodUnsureAbove: 4 }).unsure).toBe(false);
    // The "not a leaf" probability is the mean one: 0.3 over the card's 0.25 makes it unsure.
    expect(answer([photo(0.9, 0.05, 0.05, 0.6), photo(0.9, 0.05, 0.05, 0.8)], DEFAULT_THRESHOLDS).unsure).toBe(true);
  });
});
