import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FieldList, fieldsApi } from '@kutu/contract';
import { analyses } from '../../db/schema/index.ts';
import { createTestApp, type TestContext } from '../../../test/support/app.ts';
import { insertField } from '../../../test/support/fields.ts';
import { createUser } from '../../../test/support/users.ts';

/**
 * A field's photo count: a new field with no photo read "2 photos diagnosed in this field", and another
 * field's count was off by one, as the count's SQL compared each photo's field with the photo's own id.
 */
describe("a field's photos", () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('counts the photos of each field alone, and leaves the crop of a field without any free to change', async () => {
    const db = t.deps.database.db;
    const farmer = await createUser(t, 'farmer');
    const empty = await insertField(db, farmer.id, 'maize');
    // Ids far from the sequences' own: one photo whose id happens to equal its field's id.
    const used = await insertField(db, farmer.id, 'maize', { id: 900_001 });
    const photo = (id?: number) => ({
      ...(id === undefined ? {} : { id }),
      userId: farmer.id,
      fieldId: used.id,
      imagePath: 'photos/test.jpg',
      outcome: 'diagnosis' as const,
      rustClass: 'common_rust',
      confidence: 0.9,
      unsure: false,
      probabilities: { common_rust: 0.9, healthy: 0.05, other_disease: 0.05 },
      modelVersion: 'v-test',
      crop: 'maize' as const,
    });
    await db.insert(analyses).values([photo(900_001), photo(900_002), photo(900_003), photo(900_004)]);

    const list = await t.app.inject({ method: 'GET', url: fieldsApi.list, headers: farmer.headers });
    expect(list.statusCode, list.body).toBe(200);
    const byId = new Map((list.json() as FieldList).results.map((f) => [f.id, f.analyses]));
    expect(byId.get(empty.id)).toBe(0);
    expect(byId.get(used.id)).toBe(4);
    const detail = await t.app.inject({ method: 'GET', url: fieldsApi.detailPath(used.id), headers: farmer.headers });
    expect(detail.json()).toMatchObject({ analyses: 4 });

    // The same count decides whether the crop may change: free on the empty field, locked on the other.
    const patch = (id: number) =>
      t.app.inject({
        method: 'PATCH',
        url: fieldsApi.detailPath(id),
        headers: farmer.headers,
        payload: { crop: 'beans' },
      });
    expect((await patch(empty.id)).statusCode).toBe(200);
    expect((await patch(used.id)).statusCode).toBe(409);
  });
});
