import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type AnalysisResult, analysisApi, type FieldAccuracyReply, SEVERITY_TRUST, reviewApi } from '@kutu/contract';
import { analyses, analysisPhotos, expertReviews, trainingSamples } from '../../db/schema/index.ts';
import { createTestApp, type TestContext } from '../../../test/support/app.ts';
import { createUser, type TestUser } from '../../../test/support/users.ts';
import { type FilePart, fixture, multipart } from '../../../test/support/photos.ts';

const DETECT = analysisApi.detect;
const FIELD = reviewApi.fieldAccuracy;
const review = (id: number) => reviewApi.reviewPath(id);

/** Severity (docs/decisions/0045): stored with rust answers, rated by experts, agreement counted. */
describe('severity', () => {
  let t: TestContext;
  let farmer: TestUser;
  let expert: TestUser;
  let photoKey: string;

  beforeAll(async () => {
    t = await createTestApp({ env: { RETRAIN_AFTER_SAMPLES: '0' } });
    farmer = await createUser(t, 'farmer');
    expert = await createUser(t, 'expert');
    photoKey = await t.deps.storage.put('analyses/test', fixture('bean-rust.jpg'), 'jpg');
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.deps.database.db.delete(trainingSamples);
    await t.deps.database.db.delete(analyses);
  });

  const upload = async (name: string) => {
    const form = multipart([{ filename: name, data: fixture(name) } satisfies FilePart]);
    const res = await t.app.inject({
      method: 'POST',
      url: DETECT,
      payload: form.payload,
      headers: { ...form.headers, ...farmer.headers },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as AnalysisResult;
  };
  const decide = (id: number, who: TestUser, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'PUT', url: review(id), headers: who.headers, payload });
  const stored = async (id: number) => (await t.deps.database.db.select().from(analyses).where(eq(analyses.id, id)))[0];

  /** A confident rust answer with this stored share, reviewed as rust by the expert with this severity. */
  async function ratedRust(share: number, severity: 'low' | 'moderate' | 'severe' | null) {
    const [row] = await t.deps.database.db
      .insert(analyses)
      .values({
        userId: farmer.id,
        imagePath: photoKey,
        outcome: 'diagnosis',
        rustClass: 'common_rust',
        confidence: 0.95,
        probabilities: { common_rust: 0.95, healthy: 0.03, other_disease: 0.02 },
        modelVersion: 'v-test',
        rustShare: share,
      })
      .returning({ id: analyses.id });
    await t.deps.database.db.insert(expertReviews).values({
      analysisId: row.id,
      reviewerId: expert.id,
      verdict: 'common_rust',
      severity,
      reviewedAt: new Date(),
    });
    return row.id;
  }

  it('gives a confident rust answer its share and band, marked an estimate, and keeps it from other answers', async () => {
    // A bean leaf told apart from its surroundings (decision 0081), read by maize's rules (no crop named): 5–20 %
    // of it is rust-coloured. (`bean-rust.jpg`, a leaflet among seedlings, is not measured at all.)
    const rust = await upload('bean-rust-clear.jpg');
    expect(rust).toMatchObject({ rust_class: 'common_rust', unsure: false });
    expect(rust.severity).toEqual({ share: expect.any(Number), band: 'moderate', estimate: true });
    expect(rust.severity?.share).toBeCloseTo((await stored(rust.id)).rustShare ?? -1, 5);
    expect(rust.severity?.share).toBeGreaterThan(0.05);

    const healthy = await upload('maize-healthy.jpg');
    expect(healthy.rust_class).toBe('healthy');
    expect(healthy.severity).toBeNull();
    // An unsure rust answer gets none either: the farmer is asked for another photo instead.
    const unsure = await upload('bean-angular-leaf-spot.jpg');
    expect(unsure).toMatchObject({ rust_class: 'common_rust', unsure: true, severity: null });

    // A second leaf of that field: each photo keeps its share, and the field answer holds their mean.
    const form = multipart([{ filename: 'bean-rust-clear.jpg', data: fixture('bean-rust-clear.jpg') }]);
    const added = await t.app.inject({
      method: 'POST',
      url: analysisApi.photosPath(unsure.id),
      payload: form.payload,
      headers: { ...form.headers, ...farmer.headers },
    });
    expect(added.statusCode, added.body).toBe(200);
    const photos = await t.deps.database.db
      .select()
      .from(analysisPhotos)
      .where(eq(analysisPhotos.analysisId, unsure.id));
    expect(photos).toHaveLength(2);
    // The mean of the leaves measured (the angular-leaf-spot photo's leaf is not told apart clearly enough).
    const shares = photos.flatMap((p) => (p.rustShare === null ? [] : [p.rustShare]));
    expect(shares.length).toBeGreaterThan(0);
    expect((await stored(unsure.id)).rustShare).toBeCloseTo(shares.reduce((a, b) => a + b, 0) / shares.length, 5);

    // The history reads the same.
    const one = await t.app.inject({ method: 'GET', url: `${DETECT}${rust.id}/`, headers: farmer.headers });
    expect((one.json() as AnalysisResult).severity?.band).toBe('moderate');
  });

  it("stores the expert's own severity with a rust verdict, only from an expert, and drops it with another verdict", async () => {
    const id = await ratedRust(0.1, null);
    await t.deps.database.db.delete(expertReviews).where(eq(expertReviews.analysisId, id));

    expect((await decide(id, farmer, { verdict: 'common_rust', severity: 'low' })).statusCode).toBe(403);
    const wrong = await decide(id, expert, { verdict: 'healthy', severity: 'low' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.fields).toHaveProperty('severity');
    const bad = await decide(id, expert, { verdict: 'common_rust', severity: 'huge' });
    expect(bad.statusCode).toBe(400);

    const ok = await decide(id, expert, { verdict: 'common_rust', severity: 'moderate' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ verdict: 'common_rust', severity: 'moderate' });
    const mine = await t.app.inject({ method: 'GET', url: review(id), headers: farmer.headers });
    expect(mine.json()).toMatchObject({ severity: 'moderate' });

    // Revised to another verdict: no severity left behind.
    const revised = await decide(id, expert, { verdict: 'other_disease' });
    expect(revised.json()).toMatchObject({ verdict: 'other_disease', severity: null });
    const [row] = await t.deps.database.db.select().from(expertReviews).where(eq(expertReviews.analysisId, id));
    expect(row.severity).toBeNull();
  });

  it('counts how often model and expert bands agree on the field-accuracy page, and stops saying estimate once enough agree', async () => {
    await ratedRust(0.01, 'low'); // low, low
    await ratedRust(0.1, 'moderate'); // moderate, moderate
    await ratedRust(0.1, 'severe'); // moderate, severe
    await ratedRust(0.3, null); // no expert severity: not counted
    const field = await t.app.inject({ method: 'GET', url: FIELD, headers: expert.headers });
    expect(field.statusCode).toBe(200);
    const { severity } = field.json() as FieldAccuracyReply;
    expect(severity).toMatchObject({ rated: 3, agreed: 2, estimate: true });
    expect(severity.agreement).toBeCloseTo(2 / 3, 5);
    expect(severity.confusion.moderate).toEqual({ low: 0, moderate: 1, severe: 1 });
    expect(severity.confusion.low.low).toBe(1);
    expect((await t.app.inject({ method: 'GET', url: FIELD, headers: farmer.headers })).statusCode).toBe(403);

    // One rating short of enough: a result (and the history page) still calls it an estimate, and is cached so.
    for (let i = 3; i < SEVERITY_TRUST.minRated - 1; i++) await ratedRust(0.3, 'severe');
    const id = await ratedRust(0.02, null);
    const resultUrl = `${DETECT}${id}/`;
    const severityOfResult = async () =>
      ((await t.app.inject({ method: 'GET', url: resultUrl, headers: farmer.headers })).json() as AnalysisResult)
        .severity;
    const severityInHistory = async () => {
      const page = await t.app.inject({ method: 'GET', url: DETECT, headers: farmer.headers });
      return (page.json() as { results: AnalysisResult[] }).results.find((r) => r.id === id)?.severity;
    };
    expect(await severityOfResult()).toMatchObject({ estimate: true });
    expect(await severityInHistory()).toMatchObject({ estimate: true });

    // The rating that makes enough, given in the app: no result calls it an estimate any more, at once.
    const last = await ratedRust(0.3, null);
    await t.deps.database.db.delete(expertReviews).where(eq(expertReviews.analysisId, last));
    expect((await decide(last, expert, { verdict: 'common_rust', severity: 'severe' })).statusCode).toBe(200);
    const after = (
      await t.app.inject({ method: 'GET', url: FIELD, headers: expert.headers })
    ).json() as FieldAccuracyReply;
    expect(after.severity).toMatchObject({ rated: SEVERITY_TRUST.minRated, estimate: false });
    expect(await severityOfResult()).toEqual({ share: expect.closeTo(0.02, 5), band: 'low', estimate: false });
    expect(await severityInHistory()).toMatchObject({ estimate: false });
  });
});
