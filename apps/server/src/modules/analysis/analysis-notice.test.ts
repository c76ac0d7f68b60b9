import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AnalysisResult,
  analysisApi,
  confidencePercent,
  type Language,
  type NotificationList,
  notificationsApi,
} from '@kutu/contract';
import { notifications } from '../../db/schema/index.ts';
import { createTestApp, type TestContext } from '../../../test/support/app.ts';
import { createUser, type TestUser } from '../../../test/support/users.ts';
import { fixture, multipart } from '../../../test/support/photos.ts';

/** How each language says the parts of an analysis notice (the server's catalogues). */
const said: Record<Language, { done: string; unsure: string; leaves: (n: number) => string; rust: string }> = {
  en: {
    done: 'Image analysis done: ',
    unsure: 'not sure, possibly ',
    leaves: (n) => `, from ${n} leaves.`,
    rust: 'bean rust (Uromyces appendiculatus)',
  },
  sw: {
    done: 'Uchunguzi wa picha umekamilika: ',
    unsure: 'hatuna uhakika, huenda ni ',
    leaves: (n) => `, kutoka majani ${n}.`,
    rust: 'kutu ya maharagwe (Uromyces appendiculatus)',
  },
  lg: {
    done: 'Okukebera ekifaananyi kuwedde: ',
    unsure: 'tetuli bakakafu, oboolyawo ',
    leaves: (n) => `, okuva ku bikoola ${n}.`,
    rust: 'kutu ya bijanjaalo (Uromyces appendiculatus)',
  },
};

/**
 * The farmer's notice of an analysis tells the answer the farmer reads: for a field of several leaves,
 * the field's answer and how many leaves it counted, in one notice (not one per leaf), in the app and in
 * the stored copy, in the farmer's language.
 */
describe('the notice of an analysis', () => {
  let t: TestContext;
  const db = () => t.deps.database.db;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const post = (url: string, user: TestUser, file: string, fields?: Record<string, string>) => {
    const form = multipart([{ filename: 'leaf.jpg', data: fixture(file) }], fields);
    return t.app.inject({ method: 'POST', url, payload: form.payload, headers: { ...form.headers, ...user.headers } });
  };
  const stored = (userId: number) =>
    db()
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, userId), eq(notifications.type, 'image_analysis')));
  const listed = async (user: TestUser) => {
    const res = await t.app.inject({ method: 'GET', url: notificationsApi.list, headers: user.headers });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<NotificationList>().results.filter((n) => n.type === 'image_analysis');
  };

  for (const language of ['en', 'sw', 'lg'] as const) {
    it(`follows the field answer as leaves are added, in one notice (${language})`, async () => {
      const farmer = await createUser(t, 'farmer', { language });
      const s = said[language];
      // Bean angular leaf spot: an unsure "rust" (0.66), so Kutu asks for more leaves.
      const res = await post(analysisApi.detect, farmer, 'bean-angular-leaf-spot.jpg', { crop: 'beans' });
      expect(res.statusCode, res.body).toBe(201);
      const first = res.json<AnalysisResult>();
      expect([first.rust_class, first.unsure]).toEqual(['common_rust', true]);
      const firstText = `${s.done}${s.unsure}${s.rust} (${confidencePercent(first.confidence)}).`;
      expect((await listed(farmer)).map((n) => n.message)).toEqual([firstText]);

      let field = first;
      for (const leaf of ['bean-rust.jpg', 'maize-common-rust.jpg']) {
        const added = await post(analysisApi.photosPath(first.id), farmer, leaf);
        expect(added.statusCode, added.body).toBe(200);
        field = added.json<AnalysisResult>();
      }
      expect(field.photos).toHaveLength(3);
      // The field's answer of three leaves is not the first leaf's (the bug: the notice kept the first).
      expect([field.unsure, confidencePercent(field.confidence)]).not.toEqual([
        true,
        confidencePercent(first.confidence),
      ]);
      expect(field.rust_class).toBe('common_rust');
      const fieldText = `${s.done}${field.unsure ? s.unsure : ''}${s.rust} (${confidencePercent(field.confidence)})${s.leaves(3)}`;

      // In the app: one notice, now the field's answer.
      const shown = await listed(farmer);
      expect(shown.map((n) => n.message)).toEqual([fieldText]);
      expect(shown[0].data).toMatchObject({ analysis_id: first.id, leaves: 3, unsure: field.unsure });
      // The stored copy, as written in the farmer's language for whatever reads the table.
      const rows = await stored(farmer.id);
      expect(rows.map((r) => r.message)).toEqual([fieldText]);
    });
  }

  it('keeps a notice the farmer read as read when it is rewritten', async () => {
    const farmer = await createUser(t, 'farmer');
    const res = await post(analysisApi.detect, farmer, 'bean-angular-leaf-spot.jpg', { crop: 'beans' });
    const first = res.json<AnalysisResult>();
    const seen = await t.app.inject({ method: 'POST', url: analysisApi.seenPath(first.id), headers: farmer.headers });
    expect(seen.statusCode, seen.body).toBeLessThan(300);
    expect((await stored(farmer.id))[0].readAt).not.toBeNull();
    await post(analysisApi.photosPath(first.id), farmer, 'bean-rust.jpg');
    const [row] = await stored(farmer.id);
    expect(row.readAt).not.toBeNull();
    expect(row.message).toMatch(/, from 2 leaves\.$/);
  });
});
