import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { unpackTar } from 'modern-tar';
import { type Field, fieldsApi, privacyApi } from '@kutu/contract';
import { fields, scoutingWalks } from '../../db/schema/index.ts';
import { createTestApp, type TestContext, testDelivery } from '../../../test/support/app.ts';
import { post } from '../../../test/support/auth-flow.ts';
import { createUser, type TestUser } from '../../../test/support/users.ts';
import { createFieldsService } from '../fields/fields.service.ts';
import { createFollowUpService } from '../followup/followup.service.ts';
import { createEscalationService } from '../review/escalation.service.ts';
import { createWalksService } from '../fields/walks.service.ts';
import { fieldPhotoSql, followUpSources } from '../../ports.ts';

/**
 * A farmer's fields and scouting walks in "Download my data" and at erasure, with a walk an expert counted
 * for her at a plant clinic: hers to take and to erase, the expert only named in it, never copied out.
 */
// Erasures rewrite database files: slow on a busy machine.
describe('fields and walks: exported and erased as the farmer’s', { timeout: 60_000 }, () => {
  let t: TestContext;
  let farmer: TestUser;
  let expert: TestUser;
  let field: Field;
  const ids = { ownWalk: 0, clinicWalk: 0 };
  const db = () => t.deps.database.db;
  const archiveOf = async (who: TestUser) => {
    const res = await t.app.inject({ method: 'GET', url: privacyApi.export, headers: who.headers });
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    const entries = await unpackTar(gunzipSync(res.rawPayload));
    const file = entries.find((e) => e.header.name === 'kutu-my-data/fields.json');
    return JSON.parse(Buffer.from(file?.data ?? []).toString('utf8') || 'null');
  };
  const walksOf = (id: number) => db().select().from(scoutingWalks).where(eq(scoutingWalks.id, id));

  beforeAll(async () => {
    t = await createTestApp();
    farmer = await createUser(t, 'farmer', { district: 'UG-208' });
    expert = await createUser(t, 'expert');
    const made = await t.app.inject({
      method: 'POST',
      url: fieldsApi.list,
      headers: farmer.headers,
      payload: { name: 'Maize by the road', crop: 'maize' },
    });
    expect(made.statusCode, made.body).toBe(201);
    field = made.json<Field>();
    const own = await t.app.inject({
      method: 'POST',
      url: fieldsApi.walksPath(field.id),
      headers: farmer.headers,
      payload: { stops: [{ looked: 10, rust: 2 }] },
    });
    expect(own.statusCode, own.body).toBe(201);
    ids.ownWalk = own.json().id;
    // At a plant clinic the expert counts for her (the clinic's way in: the walks service with recordedBy).
    const deps = { db: db(), clock: t.clock, delivery: testDelivery(t), config: t.deps.config };
    const escalation = createEscalationService(db());
    const fieldsService = createFieldsService(deps, fieldPhotoSql);
    const followUps = createFollowUpService(deps, escalation, fieldsService, followUpSources);
    const walks = createWalksService(deps, fieldsService, followUps, escalation, fieldPhotoSql);
    const { walk } = await walks.record(farmer.id, field.id, [{ looked: 20, rust: 5 }], {
      channel: 'clinic',
      recordedBy: expert.id,
    });
    ids.clinicWalk = walk.id;
    expect((await walksOf(ids.clinicWalk))[0]?.recordedBy).toBe(expert.id);
  });
  afterAll(() => t.close());

  it('gives the farmer her fields and both walks, without the id of the expert who counted one', async () => {
    const held = await archiveOf(farmer);
    expect(held.fields).toEqual([
      expect.objectContaining({ id: field.id, userId: farmer.id, name: 'Maize by the road' }),
    ]);
    expect(held.walks.map((w: { id: number }) => w.id).sort()).toEqual([ids.ownWalk, ids.clinicWalk].sort());
    const atClinic = held.walks.find((w: { id: number }) => w.id === ids.clinicWalk);
    expect(atClinic).toMatchObject({ channel: 'clinic', plantsLooked: 20, plantsRust: 5 });
    for (const w of held.walks) expect(Object.keys(w)).not.toContain('recordedBy');
  });

  it('gives the expert none of the farmer’s fields or walks', async () => {
    expect(await archiveOf(expert)).toEqual({ fields: [], walks: [] });
  });

  it('keeps the farmer’s walk when the expert is erased, naming nobody as its counter', async () => {
    const res = await post(t, privacyApi.deleteAccount, { password: expert.password }, expert.headers);
    expect(res.statusCode, res.body).toBe(200);
    expect(await walksOf(ids.clinicWalk)).toEqual([expect.objectContaining({ userId: farmer.id, recordedBy: null })]);
    const shown = await t.app.inject({
      method: 'GET',
      url: fieldsApi.walkPath(ids.clinicWalk),
      headers: farmer.headers,
    });
    expect(shown.statusCode, shown.body).toBe(200);
  });

  it('erases the farmer’s fields and walks with her account', async () => {
    const res = await post(t, privacyApi.deleteAccount, { password: farmer.password }, farmer.headers);
    expect(res.statusCode, res.body).toBe(200);
    expect(await db().select().from(fields).where(eq(fields.userId, farmer.id))).toEqual([]);
    expect(await walksOf(ids.ownWalk)).toEqual([]);
    expect(await walksOf(ids.clinicWalk)).toEqual([]);
  });
});
