import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AnalysisResult, analysisResult, analysisApi } from '@kutu/contract';
import { analyses } from '../../db/schema/index.ts';
import { createTestApp, type TestContext } from '../../../test/support/app.ts';
import { createUser, type TestUser } from '../../../test/support/users.ts';
import { fixture, multipart } from '../../../test/support/photos.ts';

/** The rust-coloured spots outlined on the photo (docs/decisions/0054): with a confident rust answer only. */
describe('rust spots in the result', () => {
  let t: TestContext;
  let farmer: TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    farmer = await createUser(t, 'farmer');
  });
  afterAll(() => t.close());

  /** A committed fixture, or a field photo of the repository's dataset (`datasets/rust3/<class>/<file>`). */
  const photoOf = (name: string) =>
    name.includes('/')
      ? fs.readFileSync(path.join(import.meta.dirname, '../../../../../datasets/rust3', name))
      : fixture(name);
  const upload = async (name: string, crop: string) => {
    const form = multipart([{ filename: path.basename(name), data: photoOf(name) }], { crop });
    const res = await t.app.inject({
      method: 'POST',
      url: analysisApi.detect,
      payload: form.payload,
      headers: { ...form.headers, ...farmer.headers },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as AnalysisResult;
  };

  it('outlines the spots the severity counted on a confident rust answer, and none on a healthy one', async () => {
    // A bean leaf whose pustules the colour reading sees (iBean 0199, about 1.8 % of the leaf).
    const rust = await upload('common_rust/ibean__bean__bean_rust__0199.jpg', 'beans');
    expect(rust).toMatchObject({ rust_class: 'common_rust', unsure: false });
    expect(analysisResult.parse(rust).rust_spots).toBeTruthy();
    const spots = rust.rust_spots;
    expect(spots?.side).toBe(160);
    expect(spots?.boxes.length).toBeGreaterThanOrEqual(2);
    for (const [x0, y0, x1, y1] of spots?.boxes ?? []) {
      expect(0 <= x0 && x0 < x1 && x1 <= 160 && 0 <= y0 && y0 < y1 && y1 <= 160).toBe(true);
    }
    // The photo's own shape (square here), so the drawing crops the boxes as it crops the photo.
    expect(spots?.aspect).toBe(1);
    const read = await t.app.inject({ method: 'GET', url: analysisApi.detailPath(rust.id), headers: farmer.headers });
    expect((read.json() as AnalysisResult).rust_spots).toEqual(spots);

    const healthy = await upload('healthy/ibean__bean__healthy__0002.jpg', 'beans');
    expect(healthy.rust_class).toBe('healthy');
    expect(healthy.rust_spots).toBeNull();
    // Kept for every leaf photo measured (as the share is), shown only with a rust answer.
    const [row] = await t.deps.database.db.select().from(analyses).where(eq(analyses.id, healthy.id));
    expect(row.rustSpots).not.toBeNull();
  });

  it('rings nothing on a field photo where the leaf cannot be told apart, and says the leaf could not be measured', async () => {
    // A bean leaflet held among seedlings on soil (iBean 0001): the rings fell on the soil, the weeds and a
    // fingernail around it; its leaf is found less clearly than the served card's cut (decision 0081).
    const result = analysisResult.parse(await upload('bean-rust.jpg', 'beans'));
    expect(result).toMatchObject({
      outcome: 'diagnosis',
      rust_class: 'common_rust',
      unsure: false,
      severity: null,
      severity_unmeasured: true,
      rust_spots: null,
    });
    const [row] = await t.deps.database.db.select().from(analyses).where(eq(analyses.id, result.id));
    expect(row.rustShare).toBeNull();
    expect(row.rustSpots).toBeNull();
  });

  it.each([
    // Pale bean pustules the colour rule does not read (0 %), and about twenty of them read as one spot (0.2 %).
    'common_rust/ibean__bean__bean_rust__0007.jpg',
    'common_rust/ibean__bean__bean_rust__0008.jpg',
  ])(
    'never shows a confident rust answer beside under 1 per cent of the leaf: %s could not be measured',
    async (name) => {
      const result = analysisResult.parse(await upload(name, 'beans'));
      expect(result).toMatchObject({ rust_class: 'common_rust', unsure: false, severity: null, rust_spots: null });
      expect(result.severity_unmeasured).toBe(true);
      // The reading is kept as stored; only what is shown changes.
      const [row] = await t.deps.database.db.select().from(analyses).where(eq(analyses.id, result.id));
      expect(row.rustShare).not.toBeNull();
      expect(row.rustShare).toBeLessThan(0.01);
    },
  );

  it('serves a confident rust answer whose share could not be measured as such: no number, no rings, the rust advice', async () => {
    const rust = await upload('common_rust/plantdoc__maize__common_rust__0012.jpg', 'maize');
    expect(rust).toMatchObject({ rust_class: 'common_rust', unsure: false, severity_unmeasured: false });
    expect(rust.severity).not.toBeNull();
    // What classify() stores when it does not find the leaf clearly enough (leaf-mask.ts): no share, no spots.
    await t.deps.database.db.update(analyses).set({ rustShare: null, rustSpots: null }).where(eq(analyses.id, rust.id));
    const res = await t.app.inject({ method: 'GET', url: analysisApi.detailPath(rust.id), headers: farmer.headers });
    expect(res.statusCode).toBe(200);
    const read = analysisResult.parse(res.json());
    expect(read).toMatchObject({
      rust_class: 'common_rust',
      severity: null,
      severity_unmeasured: true,
      rust_spots: null,
    });
    // The advice is the rust advice still, only without a share to tie it to.
    expect(read.feedback).toEqual(rust.feedback);
    expect(read.feedback.advice.length).toBeGreaterThan(0);

    // Answers that show no severity anyway do not say it could not be measured.
    const healthy = await upload('maize-healthy.jpg', 'maize');
    await t.deps.database.db.update(analyses).set({ rustShare: null }).where(eq(analyses.id, healthy.id));
    const again = await t.app.inject({
      method: 'GET',
      url: analysisApi.detailPath(healthy.id),
      headers: farmer.headers,
    });
    expect((again.json() as AnalysisResult).severity_unmeasured).toBe(false);
  });
});
