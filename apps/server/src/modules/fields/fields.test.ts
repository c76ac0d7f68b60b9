import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AnalysisList,
  type AnalysisResult,
  analysisApi,
  type Field,
  type FieldList,
  fieldsApi,
  reviewApi,
  type ReviewQueuePage,
  shortLinks,
  type Walk,
  type WalkInput,
  type WalkList,
} from '@kutu/contract';
import { analyses, fields, followUps, notifications, scoutingWalks } from '../../db/schema/index.ts';
import { createTestApp, joinSmsParts, type TestContext, testDelivery } from '../../../test/support/app.ts';
import { errorOf } from '../../../test/support/errors.ts';
import { fixture, uploadPhoto } from '../../../test/support/photos.ts';
import { createUser, type TestUser } from '../../../test/support/users.ts';
import { createFollowUpService } from '../followup/followup.service.ts';
import { createEscalationService } from '../review/escalation.service.ts';
import { createFieldsService } from './fields.service.ts';
import { createWalksService } from './walks.service.ts';
import { fieldPhotoSql, followUpSources } from '../../ports.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const KUMI = 'UG-208';

/** Five stops of ten plants with rust on `rust` plants in all, spread over the first stops. */
const stopsWith = (rust: number, looked = 50) =>
  Array.from({ length: 5 }, (_, i) => ({
    looked: looked / 5,
    rust: Math.max(0, Math.min(looked / 5, rust - i * (looked / 5))),
  }));

/**
 * A farmer's fields and their scouting walks (docs/decisions/0078), through the routes: ownership, validation,
 * idempotent walks, advice from the counts, the comparison with the walk before, one reminder per field,
 * photos that belong to a field.
 */
describe('fields and scouting walks', () => {
  let t: TestContext;
  let expert: TestUser;
  const db = () => t.deps.database.db;
  const services = () => {
    const deps = { db: db(), clock: t.clock, delivery: testDelivery(t), config: t.deps.config };
    const escalation = createEscalationService(db());
    const fieldsService = createFieldsService(deps, fieldPhotoSql);
    const followUps = createFollowUpService(deps, escalation, fieldsService, followUpSources);
    return { followUps, walks: createWalksService(deps, fieldsService, followUps, escalation, fieldPhotoSql) };
  };

  beforeAll(async () => {
    t = await createTestApp();
    t.clock.set(new Date('2026-11-02T08:00:00Z'));
    expert = await createUser(t, 'expert');
  });
  afterAll(() => t.close());

  const send = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, who: TestUser, payload?: object) =>
    t.app.inject({ method, url, headers: who.headers, ...(payload && { payload }) });
  const makeField = async (who: TestUser, body: Record<string, unknown>) => {
    const res = await send('POST', fieldsApi.list, who, body);
    expect(res.statusCode, res.body).toBe(201);
    return res.json<Field>();
  };
  const walk = (who: TestUser, fieldId: number, body: WalkInput, key?: string) =>
    t.app.inject({
      method: 'POST',
      url: fieldsApi.walksPath(fieldId),
      headers: { ...who.headers, ...(key && { 'idempotency-key': key }) },
      payload: body,
    });
  const walked = async (who: TestUser, fieldId: number, body: WalkInput) => {
    const res = await walk(who, fieldId, body);
    expect(res.statusCode, res.body).toBe(201);
    return res.json<Walk>();
  };
  const analyse = async (who: TestUser, file: string, form: Record<string, string>) => {
    const res = await uploadPhoto(t, who, analysisApi.detect, fixture(file), form);
    expect(res.statusCode, res.body).toBe(201);
    return res.json<AnalysisResult>();
  };
  /** A date `days` before the test clock's day, as a planting date. */
  const daysAgo = (days: number) => new Date(t.clock.now().getTime() - days * DAY_MS).toISOString().slice(0, 10);

  it('keeps a farmer’s fields to their owner: another farmer reads 404, an expert 403', async () => {
    const owner = await createUser(t, 'farmer', { district: KUMI });
    const other = await createUser(t, 'farmer', { district: KUMI });
    const officer = await createUser(t, 'officer', { districts: [KUMI] });
    const made = await makeField(owner, { name: 'Upper plot', crop: 'beans', size_acres: 0.5 });
    // The owner's district, a number for a basic phone, no walk yet.
    expect(made).toMatchObject({ number: 1, district: KUMI, size_acres: 0.5, last_walk: null, analyses: 0 });
    for (const [method, url, body] of [
      ['GET', fieldsApi.detailPath(made.id)],
      ['PATCH', fieldsApi.detailPath(made.id), { name: 'Mine now' }],
      ['DELETE', fieldsApi.detailPath(made.id)],
      ['GET', fieldsApi.walksPath(made.id)],
      ['POST', fieldsApi.walksPath(made.id), { stops: stopsWith(1) }],
    ] as const) {
      const res = await send(method, url, other, body);
      expect([method, url, res.statusCode]).toEqual([method, url, 404]);
      expect(errorOf(res).message).toBe('Field not found');
      expect((await send(method, url, expert, body)).statusCode).toBe(403);
      expect((await send(method, url, officer, body)).statusCode).toBe(403);
    }
    expect((await send('GET', fieldsApi.list, expert)).statusCode).toBe(403);
    const theirs = (await send('GET', fieldsApi.list, other)).json<FieldList>();
    expect(theirs.count).toBe(0);
    // A walk of the owner is another farmer's 404 too; the expert who did not count it sees nothing either.
    const w = await walked(owner, made.id, { stops: stopsWith(3) });
    expect((await send('GET', fieldsApi.walkPath(w.id), other)).statusCode).toBe(404);
    expect((await send('GET', fieldsApi.walkPath(w.id), expert)).statusCode).toBe(404);
    expect((await send('GET', fieldsApi.walkPath(w.id), owner)).json<Walk>()).toEqual(w);
  });

  it('checks a field’s facts with clear messages, names once per farmer whatever the case, and pages the list', async () => {
    const farmer = await createUser(t, 'farmer', { district: KUMI });
    const noDistrict = await createUser(t, 'farmer');
    const bad = async (who: TestUser, body: object, field: string, message: string) => {
      const res = await send('POST', fieldsApi.list, who, body);
      expect(res.statusCode, res.body).toBe(400);
      expect(errorOf(res).fields?.[field]).toBe(message);
    };
    await bad(farmer, { name: ' ', crop: 'maize' }, 'name', 'Give the field a name');
    await bad(farmer, { name: 'A', crop: 'rice' }, 'crop', 'crop must be maize, beans or other');
    await bad(farmer, { name: 'A', crop: 'maize', size_acres: 0 }, 'size_acres', 'Give the size in acres, more than 0');
    await bad(
      farmer,
      { name: 'A', crop: 'maize', planted_on: '2026-02-30' },
      'planted_on',
      'Give the planting date as a date',
    );
    await bad(
      farmer,
      { name: 'A', crop: 'maize', planted_on: '2026-11-03' },
      'planted_on',
      'The planting date cannot be in the future',
    );
    await bad(
      farmer,
      { name: 'A', crop: 'maize', location: { lat: 51.5, lng: 0 } },
      'location.lat',
      'The place must be in Uganda or Kenya',
    );
    await bad(noDistrict, { name: 'A', crop: 'maize' }, 'district', 'Choose the district the field is in');
    // Planted today in East Africa (past 21:00 UTC the day before) is not in the future.
    t.clock.set(new Date('2026-11-02T22:30:00Z'));
    await makeField(farmer, { name: 'Maize by the road', crop: 'maize', planted_on: '2026-11-03' });
    t.clock.set(new Date('2026-11-02T08:00:00Z'));
    const taken = await send('POST', fieldsApi.list, farmer, { name: 'MAIZE BY THE ROAD', crop: 'beans' });
    expect(taken.statusCode).toBe(409);
    expect(errorOf(taken).fields?.name).toBe('You already have a field with this name. Choose another name.');
    for (const name of ['Two', 'Three']) await makeField(farmer, { name, crop: 'beans' });
    const page = (await send('GET', `${fieldsApi.list}?page=2&page_size=2`, farmer)).json<FieldList>();
    expect(page).toMatchObject({ count: 3, next: null, previous: 1 });
    // Newest first: the field made at 22:30 leads, then Three and Two (made at 08:00).
    expect(page.results.map((f) => [f.name, f.number])).toEqual([['Two', 2]]);
  });

  // On PostgreSQL 25 at once once gave five 500s: the number clashed after five retries.
  it('numbers 25 fields made at once by one farmer 1 to 25, none refused', async () => {
    const farmer = await createUser(t, 'farmer', { district: KUMI });
    const made = await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        send('POST', fieldsApi.list, farmer, { name: `Plot ${i + 1}`, crop: 'beans' }),
      ),
    );
    expect(made.map((r) => r.statusCode)).toEqual(Array(25).fill(201));
    expect(made.map((r) => r.json<{ number: number }>().number).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 25 }, (_, i) => i + 1),
    );
    const clash = await Promise.all(
      [1, 2].map(() => send('POST', fieldsApi.list, farmer, { name: 'Same', crop: 'beans' })),
    );
    expect(clash.map((r) => r.statusCode).sort()).toEqual([201, 409]);
  });

  it('retires a field: out of the list, no walks or changes, its name free again, its number never reused', async () => {
    const farmer = await createUser(t, 'farmer', { district: KUMI });
    const old = await makeField(farmer, { name: 'Old plot', crop: 'beans' });
    await walked(farmer, old.id, { stops: stopsWith(0) });
    // Its crop is what its walks were of.
    const crop = await send('PATCH', fieldsApi.detailPath(old.id), farmer, { crop: 'maize' });
    expect(crop.statusCode).toBe(409);
    expect(errorOf(crop).fields?.crop).toMatch(/add a new field/);
    expect((await send('DELETE', fieldsApi.detailPath(old.id), farmer)).statusCode).toBe(204);
    expect((await send('DELETE', fieldsApi.detailPath(old.id), farmer)).statusCode).toBe(204);
    expect((await send('GET', fieldsApi.list, farmer)).json<FieldList>().count).toBe(0);
    const detail = (await send('GET', fieldsApi.detailPath(old.id), farmer)).json<Field>();
    expect(detail.retired_at).not.toBeNull();
    expect(detail.last_walk?.plants_looked).toBe(50);
    expect((await walk(farmer, old.id, { stops: stopsWith(1) })).statusCode).toBe(409);
    expect((await send('PATCH', fieldsApi.detailPath(old.id), farmer, { name: 'x' })).statusCode).toBe(409);
    expect((await send('GET', fieldsApi.walksPath(old.id), farmer)).json<WalkList>().count).toBe(1);
    const again = await makeField(farmer, { name: 'old plot', crop: 'maize', planted_on: daysAgo(30) });
    expect(again.number).toBe(2);
    expect([again.weeks_since_planting, again.growth_stage]).toEqual([4, 'vegetative']);
    const renamed = await send('PATCH', fieldsApi.detailPath(again.id), farmer, { name: 'New plot', size_acres: null });
    expect(renamed.json<Field>()).toMatchObject({ name: 'New plot', size_acres: null, crop: 'maize' });
  });

  it('answers 14 of 50 and 2 of 50 at the same stage with different advice that rests on the counts', async () => {
    const farmer = await createUser(t, 'farmer', { district: KUMI });
    // Beans planted 3 weeks ago: vegetative, before the pods.
    const many = await makeField(farmer, { name: 'Beans A', crop: 'beans', planted_on: daysAgo(21) });
    const few = await makeField(farmer, { name: 'Beans B', crop: 'beans', planted_on: daysAgo(21) });
    const a = await walked(farmer, many.id, { stops: stopsWith(14) });
    const b = await walked(farmer, few.id, { stops: stopsWith(2) });
    expect([a.plants_rust, a.plants_looked, a.weeks_since_planting, a.growth_stage]).toEqual([14, 50, 3, 'vegetative']);
    expect([b.plants_rust, b.plants_looked, b.weeks_since_planting, b.growth_stage]).toEqual([2, 50, 3, 'vegetative']);
    expect(a.advice).toMatchObject({ rule: 'beans.spray', action: 'spray_now', walk_again_days: 7 });
    expect(b.advice).toMatchObject({ rule: 'beans.low', action: 'remove_leaves', walk_again_days: 7 });
    expect(a.incidence?.share).toBeCloseTo(0.28, 6);
    expect(b.incidence?.share).toBeCloseTo(0.04, 6);
    expect(a.advice.sources.length).toBeGreaterThan(0);
    // The stage said at the walk wins over the calendar: dry pods are not sprayed.
    const late = await walked(farmer, many.id, { stops: stopsWith(14), growth_stage: 'mature' });
    expect([late.growth_stage, late.stage_said, late.advice.rule]).toEqual(['mature', true, 'beans.late']);
    expect(late.channel).toBe('web');
  });

  it('checks a walk: counts, its time, its photos; a retried walk is the same walk', async () => {
    const farmer = await createUser(t, 'farmer', { district: KUMI });
    const other = await createUser(t, 'farmer', { district: KUMI });
    const field = await makeField(farmer, { name: 'Checked', crop: 'maize' });
    const second = await makeField(farmer, { name: 'Second', crop: 'maize' });
    const refused = async (body: object, path: string, message: string) => {
      const res = await walk(farmer, field.id, body as WalkInput);
      expect(res.statusCode, res.body).toBe(400);
      expect(errorOf(res).fields?.[path]).toBe(message);
    };
    await refused(
      { stops: [{ looked: 5, rust: 6 }] },
      'stops.0.rust',
      'Plants with rust cannot be more than the plants looked at',
    );
    await refused({ stops: [] }, 'stops', 'Count at least one stop');
    await refused({ stops: [{ looked: 0, rust: 0 }] }, 'stops', 'Look at one plant at least');
    await refused({ stops: [{ looked: 101, rust: 0 }] }, 'stops.0.looked', 'Count at most 100 plants at one stop');
    // Once a 500 ("yesterday", "null") or taken as now (""): anything that is not a date and time.
    for (const walkedAt of ['yesterday', 'null', '', '2026-11-28', '28/11/2026 09:00'])
      await refused(
        { stops: stopsWith(1), walked_at: walkedAt },
        'walked_at',
        "The walk's date must be a date and time, such as 2026-11-28T09:30:00Z",
      );
    const future = new Date(t.clock.now().getTime() + DAY_MS).toISOString();
    await refused({ stops: stopsWith(1), walked_at: future }, 'walked_at', "The walk's date cannot be in the future");
    const old = new Date(t.clock.now().getTime() - 31 * DAY_MS).toISOString();
    await refused(
      { stops: stopsWith(1), walked_at: old },
      'walked_at',
      'A walk can be sent at most 30 days after it was made',
    );
    // A stop's photo must be the farmer's own photo of this field.
    const mine = await analyse(farmer, 'maize-common-rust.jpg', { field_id: String(second.id) });
    const theirs = await analyse(other, 'maize-common-rust.jpg', { crop: 'maize' });
    for (const id of [mine.id, theirs.id]) {
      await refused(
        { stops: [{ looked: 10, rust: 2, analysis_id: id }] },
        'stops.0.analysis_id',
        'Choose one of your photos of this field',
      );
    }
    expect(await db().select().from(scoutingWalks).where(eq(scoutingWalks.fieldId, field.id))).toEqual([]);

    // Counted offline three days ago and sent twice: one walk, answered 201 then 200.
    const walkedAt = new Date(t.clock.now().getTime() - 3 * DAY_MS).toISOString();
    const body = { stops: stopsWith(5), walked_at: walkedAt, offline: true };
    const first = await walk(farmer, field.id, body, 'walk-retry-key-0001');
    const again = await walk(farmer, field.id, body, 'walk-retry-key-0001');
    expect([first.statusCode, again.statusCode]).toEqual([201, 200]);
    expect(again.json<Walk>()).toEqual(first.json<Walk>());
    expect(first.json<Walk>()).toMatchObject({ channel: 'offline', walked_at: walkedAt, compared: null });
    expect(await db().select().from(scoutingWalks).where(eq(scoutingWalks.fieldId, field.id))).toHaveLength(1);
    // The same key from another farmer is theirs: a key is per farmer.
    const otherField = await makeField(other, { name: 'Theirs', crop: 'maize' });
    expect((await walk(other, otherField.id, body, 'walk-retry-key-0001')).statusCode).toBe(201);
    expect((await walk(farmer, field.id, body, 'short')).statusCode).toBe(400);
  });

  it('compares a walk with the field’s walk before it and answers the field’s reminder with it', async () => {
    const farmer = await createUser(t, 'farmer', { district: KUMI });
    const field = await makeField(farmer, { name: 'Compared', crop: 'maize', planted_on: daysAgo(35) });
    const first = await walked(farmer, field.id, { stops: stopsWith(20) });
    expect(first.advice.rule).toBe('maize.spray');
    // Rust found: the field's reminder asks for the next walk when the advice says.
    const [reminder] = await db().select().from(followUps).where(eq(followUps.fieldId, field.id));
    expect(reminder).toMatchObject({ walkId: first.id, analysisId: null, state: 'waiting' });
    expect(reminder.dueAt.getTime()).toBe(new Date(first.walked_at).getTime() + 7 * DAY_MS);
    const listed = (await send('GET', fieldsApi.detailPath(field.id), farmer)).json<Field>();
    expect(listed.remind_at).toBe(reminder.dueAt.toISOString());
    expect(listed.last_walk?.id).toBe(first.id);

    t.clock.advance(8 * DAY_MS);
    await services().followUps.sendDue();
    const sms = joinSmsParts(t.outbox.list().filter((m) => m.channel === 'sms' && m.to === farmer.phone));
    expect(sms.map((m) => m.text)).toEqual([
      `Kutu: time to walk your field "Compared" again. Count plants with rust at 5 stops: ${t.deps.config.publicUrl}${shortLinks.walk(field.id)}`,
    ]);
    const next = await walked(farmer, field.id, { stops: stopsWith(2) });
    expect(next.compared).toEqual({
      walk_id: first.id,
      walked_at: first.walked_at,
      plants_looked: 50,
      plants_rust: 20,
      outcome: 'better',
    });
    const rows = await db().select().from(followUps).where(eq(followUps.fieldId, field.id));
    expect(rows.find((r) => r.id === reminder.id)).toMatchObject({
      state: 'compared',
      nextWalkId: next.id,
      outcome: 'better',
      escalated: false,
    });
    // Still rust: the next reminder is the new walk's.
    expect(rows.filter((r) => r.state === 'waiting')).toMatchObject([{ walkId: next.id }]);
    // Too few plants to tell, then no rust: no reminder left waiting.
    const few = await walked(farmer, field.id, { stops: [{ looked: 4, rust: 1 }] });
    expect(few.compared?.outcome).toBe('too_few_plants');
    // 1 rusty plant of 4 bears no spray: count a full walk first.
    expect(few.advice).toMatchObject({ action: 'walk_again', steps: ['count_before_spray', 'walk_again_soon'] });
    const clean = await walked(farmer, field.id, { stops: stopsWith(0) });
    expect(clean.compared?.outcome).toBe('better');
    const open = await db()
      .select()
      .from(followUps)
      .where(and(eq(followUps.fieldId, field.id), eq(followUps.state, 'waiting')));
    expect(open).toEqual([]);
    // Walks latest first.
    const page = (await send('GET', `${fieldsApi.walksPath(field.id)}?page_size=2`, farmer)).json<WalkList>();
    expect(page.count).toBe(4);
    expect(page.results.map((w) => w.id)).toEqual([clean.id, few.id]);
  });

  it('puts a worse walk in front of the experts with its leaf photo, and lists one without for the officers', async () => {
    const farmer = await createUser(t, 'farmer', { district: KUMI });
    const field = await makeField(farmer, { name: 'Getting worse', crop: 'maize', planted_on: daysAgo(35) });
    await walked(farmer, field.id, { stops: stopsWith(2) });
    t.clock.advance(7 * DAY_MS);
    const leaf = await analyse(farmer, 'maize-common-rust.jpg', { field_id: String(field.id) });
    const worse = await walked(farmer, field.id, {
      stops: [{ looked: 10, rust: 9, analysis_id: leaf.id }, ...stopsWith(27, 40)],
    });
    expect([worse.compared?.outcome, worse.sent_to_expert]).toEqual(['worse', true]);
    const queue = await send('GET', `${reviewApi.queue}?page=1&page_size=50`, expert);
    const item = queue.json<ReviewQueuePage>().results.find((i) => i.analysis.id === leaf.id);
    expect(item?.reason).toMatch(
      /^Follow-up walk of Getting worse: rust on 2 of 50 plants in the walk of .+, on 36 of 50 plants in this walk\. The field may be getting worse\.$/,
    );

    // Another field gets worse without a photo: the officers' week lists it (the walks service's query).
    const quiet = await makeField(farmer, { name: 'No photo', crop: 'maize', planted_on: daysAgo(35) });
    await walked(farmer, quiet.id, { stops: stopsWith(1) });
    const silent = await walked(farmer, quiet.id, { stops: stopsWith(30) });
    expect([silent.compared?.outcome, silent.sent_to_expert]).toEqual(['worse', false]);
    const now = t.clock.now().getTime();
    const week = await services().walks.worseIn(KUMI, new Date(now - DAY_MS), new Date(now + 1));
    expect(week.map((w) => [w.walk.id, w.fieldName])).toEqual([[silent.id, 'No photo']]);
    expect(await services().walks.worseIn('UG-102', new Date(0), t.clock.now())).toEqual([]);
  });

  it('puts each photo in a field: the one chosen, else the farmer’s field of the crop, made once', async () => {
    const farmer = await createUser(t, 'farmer', { district: KUMI, language: 'sw' });
    const other = await createUser(t, 'farmer', { district: KUMI });
    // No field yet: the photo makes the farmer's beans field, named in their language; the next one uses it.
    const first = await analyse(farmer, 'maize-healthy.jpg', { crop: 'beans' });
    const second = await analyse(farmer, 'maize-healthy.jpg', { crop: 'beans' });
    expect(first.field?.name).toBe('Shamba la maharage');
    expect(second.field).toEqual(first.field);
    // No crop said: the profile's (maize).
    const none = await analyse(farmer, 'maize-healthy.jpg', {});
    expect([none.field?.name, none.crop]).toEqual(['Shamba la mahindi', 'maize']);
    const made = await db().select().from(fields).where(eq(fields.userId, farmer.id));
    expect(made.map((f) => [f.name, f.crop, f.district, f.number])).toEqual([
      ['Shamba la maharage', 'beans', KUMI, 1],
      ['Shamba la mahindi', 'maize', KUMI, 2],
    ]);
    // A chosen field: its crop when none is said; another crop is refused before any work.
    const plot = await makeField(farmer, { name: 'Mahindi ya juu', crop: 'maize' });
    const chosen = await analyse(farmer, 'maize-healthy.jpg', { field_id: String(plot.id) });
    expect([chosen.field, chosen.crop]).toEqual([{ id: plot.id, name: 'Mahindi ya juu' }, 'maize']);
    const count = async () => (await db().select().from(analyses).where(eq(analyses.userId, farmer.id))).length;
    const before = await count();
    const wrongCrop = await uploadPhoto(t, farmer, analysisApi.detect, fixture('maize-healthy.jpg'), {
      field_id: String(plot.id),
      crop: 'beans',
    });
    expect(wrongCrop.statusCode).toBe(400);
    expect(errorOf(wrongCrop).fields?.crop).toBe(
      'Zao ulilochagua si zao la shamba hili. Chagua zao la shamba, au shamba lingine.',
    );
    const theirs = await makeField(other, { name: 'Not hers', crop: 'maize' });
    const foreign = await uploadPhoto(t, farmer, analysisApi.detect, fixture('maize-healthy.jpg'), {
      field_id: String(theirs.id),
    });
    expect(foreign.statusCode).toBe(404);
    await send('DELETE', fieldsApi.detailPath(plot.id), farmer);
    const retired = await uploadPhoto(t, farmer, analysisApi.detect, fixture('maize-healthy.jpg'), {
      field_id: String(plot.id),
    });
    expect(retired.statusCode).toBe(400);
    expect(await count()).toBe(before);
    // The history by field: only its photos; another farmer's field is 404.
    const byField = await send('GET', `${analysisApi.list}?field=${first.field?.id}`, farmer);
    expect(byField.json<AnalysisList>().results.map((r) => r.id)).toEqual([second.id, first.id]);
    expect((await send('GET', `${analysisApi.list}?field=${theirs.id}`, farmer)).statusCode).toBe(404);
    expect((await send('GET', `${analysisApi.list}?field=abc`, farmer)).statusCode).toBe(400);
  });

  it('files a first photo sent with no crop and no field under the profile’s crop, not as “My field” of another crop', async () => {
    const beans = await createUser(t, 'farmer', { district: KUMI });
    const none = await createUser(t, 'farmer', { district: KUMI });
    await db().execute(sql`update farmer_profiles set crop_types = '{BEANS}' where user_id = ${beans.id}`);
    await db().execute(sql`update farmer_profiles set crop_types = '{}' where user_id = ${none.id}`);
    const first = await analyse(beans, 'maize-healthy.jpg', {});
    expect([first.field?.name, first.crop]).toEqual(['Beans field', 'beans']);
    const made = await db().select().from(fields).where(eq(fields.userId, beans.id));
    expect(made.map((f) => [f.name, f.crop])).toEqual([['Beans field', 'beans']]);
    // A profile that names no crop: the field of no crop, as before.
    const unsaid = await analyse(none, 'maize-healthy.jpg', {});
    expect([unsaid.field?.name, unsaid.crop]).toEqual(['My field', null]);
  });

  it('asks a rust answer for a walk of its field until one is made, and never sets advice from the leaf’s share', async () => {
    const farmer = await createUser(t, 'farmer', { district: KUMI });
    const rust = await analyse(farmer, 'maize-common-rust.jpg', { crop: 'maize' });
    const healthy = await analyse(farmer, 'maize-healthy.jpg', { crop: 'maize' });
    expect([rust.walk_asked, healthy.walk_asked]).toEqual([true, false]);
    const history = async () =>
      (await send('GET', analysisApi.list, farmer)).json<AnalysisList>().results.find((r) => r.id === rust.id);
    expect((await history())?.walk_asked).toBe(true);
    await walked(farmer, rust.field?.id ?? 0, { stops: stopsWith(3) });
    // The cached history is read again after the walk.
    expect((await history())?.walk_asked).toBe(false);
  });

  it('keeps a reminder a walk answered closed when an expert answers the photo later: the walk’s reminder asks', async () => {
    const farmer = await createUser(t, 'farmer', { district: KUMI });
    const photo = await analyse(farmer, 'maize-common-rust.jpg', { crop: 'maize' });
    const fieldId = photo.field?.id ?? 0;
    await walked(farmer, fieldId, { stops: stopsWith(20) });
    t.clock.advance(60_000);
    const verdict = await send('PUT', reviewApi.reviewPath(photo.id), expert, { verdict: 'common_rust' });
    expect(verdict.statusCode, verdict.body).toBe(200);
    const rows = await db().select().from(followUps).where(eq(followUps.fieldId, fieldId));
    const walkReminder = rows.find((r) => r.walkId !== null);
    expect(rows.find((r) => r.analysisId === photo.id)).toMatchObject({ state: 'cancelled' });
    expect(walkReminder?.state).toBe('waiting');
    const sms = joinSmsParts(t.outbox.list().filter((m) => m.channel === 'sms' && m.to === farmer.phone));
    // The verdict SMS is one part and names no date now (the result page and the reminder keep it).
    expect(sms.map((m) => m.text).join('\n')).toContain('an expert says: common rust');
    expect(walkReminder?.dueAt.getTime()).toBeGreaterThan(t.clock.now().getTime());
  });

  it('gives two bean fields with rust two reminders, each naming its field and linking to its walk', async () => {
    const farmer = await createUser(t, 'farmer', { district: KUMI });
    // An emoji in a name would make the SMS two: the SMS leaves it out, the app keeps it.
    const east = await makeField(farmer, { name: 'East beans 🌱', crop: 'beans' });
    const west = await makeField(farmer, { name: 'West beans', crop: 'beans' });
    const a = await analyse(farmer, 'maize-common-rust.jpg', { field_id: String(east.id) });
    const b = await analyse(farmer, 'maize-common-rust.jpg', { field_id: String(west.id) });
    expect([a.rust_class, a.unsure, b.rust_class, b.unsure]).toEqual(['common_rust', false, 'common_rust', false]);
    expect([a.remind_at, b.remind_at].every(Boolean)).toBe(true);
    const reminders = await db().select().from(followUps).where(eq(followUps.userId, farmer.id));
    expect(reminders.map((r) => [r.fieldId, r.analysisId, r.state]).sort()).toEqual(
      [
        [east.id, a.id, 'waiting'],
        [west.id, b.id, 'waiting'],
      ].sort(),
    );
    t.clock.advance(8 * DAY_MS);
    await services().followUps.sendDue();
    const texts = joinSmsParts(t.outbox.list().filter((m) => m.channel === 'sms' && m.to === farmer.phone))
      .map((m) => m.text)
      .sort();
    expect(texts).toEqual([
      `Kutu: time to walk your field "East beans" again. Count plants with rust at 5 stops: ${t.deps.config.publicUrl}${shortLinks.walk(east.id)}`,
      `Kutu: time to walk your field "West beans" again. Count plants with rust at 5 stops: ${t.deps.config.publicUrl}${shortLinks.walk(west.id)}`,
    ]);
    const notices = await db()
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, farmer.id), eq(notifications.type, 'follow_up_reminder')));
    expect(notices.map((n) => n.message).sort()).toEqual([
      'Time to walk East beans 🌱 again: count the plants with rust at a few stops, so Kutu can tell whether the rust is spreading.',
      'Time to walk West beans again: count the plants with rust at a few stops, so Kutu can tell whether the rust is spreading.',
    ]);
    // The short link leads to the field's walk.
    const link = await t.app.inject({ method: 'GET', url: shortLinks.walk(east.id) });
    expect([link.statusCode, link.headers.location]).toEqual([302, `/account/fields/${east.id}/walk`]);
    // A walk of the east field answers its reminder only.
    await walked(farmer, east.id, { stops: stopsWith(4) });
    const after = await db().select().from(followUps).where(eq(followUps.userId, farmer.id));
    expect(after.find((r) => r.analysisId === a.id)?.nextWalkId).not.toBeNull();
    expect(after.find((r) => r.analysisId === b.id)?.state).toBe('sent');
  });
});
