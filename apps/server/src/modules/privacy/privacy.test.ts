import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import { unpackTar } from 'modern-tar';
import { analysisApi, api, fieldsApi, privacyApi, reviewApi } from '@kutu/contract';
import {
  analyses,
  analysisPhotos,
  availabilitySlots,
  bookings,
  consents,
  deliveries,
  erasureLog,
  fields,
  notifications,
  officerActions,
  posts,
  responses,
  scoutingWalks,
  trainingSamples,
  users,
} from '../../db/schema/index.ts';
import { createTestApp, type TestContext } from '../../../test/support/app.ts';
import { farmerBody, PASSWORD, post } from '../../../test/support/auth-flow.ts';
import { fixture, multipart } from '../../../test/support/photos.ts';
import { createUser, type TestUser } from '../../../test/support/users.ts';
import { type Fate, PERSONAL_DATA } from './personal-data.ts';
import { scanFor } from '../../../test/support/personal-scan.ts';

describe('my data: the archive of everything held, and deleting the account', () => {
  let t: TestContext;
  let amina: TestUser;
  let brian: TestUser;
  let expert: TestUser;
  let admin: TestUser;
  const db = () => t.deps.database.db;
  const ids: { analysis: number; keptPost: number; lonePost: number; brianAnalysis: number; walk: number } = {
    walk: 0,
    analysis: 0,
    keptPost: 0,
    lonePost: 0,
    brianAnalysis: 0,
  };

  const upload = async (who: TestUser, name = 'maize-common-rust.jpg') => {
    const form = multipart([{ filename: 'leaf.jpg', data: fixture(name) }]);
    const res = await t.app.inject({
      method: 'POST',
      url: analysisApi.detect,
      payload: form.payload,
      headers: { ...form.headers, ...who.headers },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as number;
  };
  const get = (url: string, who: TestUser) => t.app.inject({ method: 'GET', url, headers: who.headers });
  const archiveOf = async (who: TestUser) => {
    const res = await get(privacyApi.export, who);
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    expect(res.headers['content-type']).toBe('application/gzip');
    expect(res.headers['content-disposition']).toMatch(/attachment; filename="kutu-my-data-\d{4}-\d\d-\d\d\.tar\.gz"/);
    const entries = await unpackTar(gunzipSync(res.rawPayload));
    return new Map(entries.map((e) => [e.header.name.replace('kutu-my-data/', ''), Buffer.from(e.data ?? [])]));
  };

  beforeAll(async () => {
    t = await createTestApp();
    amina = await createUser(t, 'farmer', { username: 'amina_nakato' });
    brian = await createUser(t, 'farmer', { username: 'brian_okello' });
    expert = await createUser(t, 'expert');
    admin = await createUser(t, 'admin');
    // Amina lets her photos train the model; Brian never said.
    const agreed = await t.app.inject({
      method: 'PUT',
      url: privacyApi.consents,
      headers: amina.headers,
      payload: { training: true },
    });
    expect(agreed.statusCode, agreed.body).toBe(200);
    ids.analysis = await upload(amina);
    ids.brianAnalysis = await upload(brian, 'bean-rust.jpg');
    // Her photo went to her field; she walked it, with the photo at a stop.
    const [photo] = await db().select().from(analyses).where(eq(analyses.id, ids.analysis));
    const walked = await t.app.inject({
      method: 'POST',
      url: fieldsApi.walksPath(photo.fieldId ?? 0),
      headers: amina.headers,
      payload: { stops: [{ looked: 10, rust: 3, analysis_id: ids.analysis }] },
    });
    expect(walked.statusCode, walked.body).toBe(201);
    ids.walk = walked.json().id;
    // The expert's verdict makes a training sample (a copy of the photo) of each.
    for (const id of [ids.analysis, ids.brianAnalysis]) {
      const res = await t.app.inject({
        method: 'PUT',
        url: reviewApi.reviewPath(id),
        headers: expert.headers,
        payload: { verdict: 'common_rust' },
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    const [kept, lone] = await db()
      .insert(posts)
      .values([
        {
          authorId: amina.id,
          title: 'Rust?',
          content: 'Orange spots',
          cropType: 'maize',
          diseaseType: 'rust',
          urgencyLevel: 'high',
        },
        {
          authorId: amina.id,
          title: 'Beans',
          content: 'Yellow leaves',
          cropType: 'beans',
          diseaseType: 'other',
          urgencyLevel: 'low',
        },
      ])
      .returning();
    ids.keptPost = kept.id;
    ids.lonePost = lone.id;
    await db()
      .insert(responses)
      .values([
        { postId: kept.id, authorId: brian.id, content: 'Same in my field' },
        { postId: kept.id, authorId: amina.id, content: 'Thank you' },
      ]);
    const [slot] = await db()
      .insert(availabilitySlots)
      .values({ expertId: expert.id, startTime: new Date('2026-12-01T08:00Z'), endTime: new Date('2026-12-01T09:00Z') })
      .returning();
    await db().insert(bookings).values({ slotId: slot.id, farmerId: amina.id, topic: 'Rust on maize' });
    // What the expert was told names her: her name and number leave it at erasure.
    await db()
      .insert(notifications)
      .values([
        {
          userId: expert.id,
          type: 'booking',
          message: `amina_nakato booked your slot (${amina.phone})`,
          data: { farmer: 'amina_nakato' },
        },
        { userId: amina.id, type: 'review', message: 'Your photo was reviewed' },
        { userId: brian.id, type: 'review', message: 'Brian only' },
      ]);
    await db()
      .insert(deliveries)
      .values({
        key: 'booking-sms-expert',
        userId: expert.id,
        channel: 'sms',
        kind: 'booking',
        body: { key: 'consultations.reminder.smsToExpert', params: { farmer: 'amina_nakato', phone: amina.phone } },
        nextAt: new Date(),
        createdAt: new Date(),
      });
  });
  afterAll(() => t.close());

  it('holds every record of the person, with the photos, and nothing of anybody else', async () => {
    const files = await archiveOf(amina);
    const text = (name: string) => files.get(name)?.toString('utf8') ?? '';
    const profile = JSON.parse(text('profile.json'));
    expect(profile.account).toMatchObject({ id: amina.id, username: 'amina_nakato', phone: amina.phone });
    expect(profile.account.passwordHash).toBeUndefined();
    expect(profile.farmer).toMatchObject({ farmLocation: 'Mbale' });
    const held = JSON.parse(text('analyses.json'));
    expect(held.analyses.map((a: { id: number }) => a.id)).toEqual([ids.analysis]);
    expect(held.verdicts).toEqual([expect.objectContaining({ analysisId: ids.analysis, verdict: 'common_rust' })]);
    const fieldsFile = JSON.parse(text('fields.json'));
    expect(fieldsFile.fields).toEqual([expect.objectContaining({ userId: amina.id, name: 'Maize field' })]);
    expect(fieldsFile.walks).toEqual([
      expect.objectContaining({ id: ids.walk, plantsLooked: 10, plantsRust: 3, adviceRule: 'maize.count' }),
    ]);
    expect(fieldsFile.walks[0].recordedBy).toBeUndefined();
    const postsFile = JSON.parse(text('posts.json'));
    expect(postsFile.posts.map((p: { id: number }) => p.id).sort()).toEqual([ids.keptPost, ids.lonePost].sort());
    expect(postsFile.comments.map((c: { content: string }) => c.content)).toEqual(['Thank you']);
    expect(postsFile.replies_by_others).toBe(1);
    expect(JSON.parse(text('bookings.json')).bookings).toEqual([expect.objectContaining({ topic: 'Rust on maize' })]);
    const messages = JSON.parse(text('messages.json'));
    const told = messages.notifications.map((n: { message: string; userId: number }) => [n.userId, n.message]);
    expect(told).toContainEqual([amina.id, 'Your photo was reviewed']);
    expect(told.every(([id]: [number]) => id === amina.id)).toBe(true);
    expect(JSON.parse(text('consents.json'))).toEqual([
      expect.objectContaining({ purpose: 'training', granted: true, channel: 'profile', textVersion: '2026-11-v1' }),
    ]);
    // The photo's bytes, as stored.
    const [row] = await db().select().from(analyses).where(eq(analyses.id, ids.analysis));
    const photo = [...files.entries()].find(([name]) => name === `photos/${row.imagePath.split('/').join('_')}`);
    expect(photo?.[1].equals(await t.deps.storage.get(row.imagePath))).toBe(true);
    // Nobody else's: not Brian's name, number, analysis or photo; not the expert's name or number.
    const all = [...files.entries()]
      .filter(([n]) => n.endsWith('.json'))
      .map(([, b]) => b.toString('utf8'))
      .join('\n');
    for (const other of [brian.username, brian.phone, expert.username, expert.phone, 'Brian only']) {
      expect(all).not.toContain(other);
    }
    const [brianRow] = await db().select().from(analyses).where(eq(analyses.id, ids.brianAnalysis));
    const brianBytes = await t.deps.storage.get(brianRow.imagePath);
    expect([...files.values()].some((b) => b.equals(brianBytes))).toBe(false);
    expect(held.analyses.some((a: { id: number }) => a.id === ids.brianAnalysis)).toBe(false);
  });

  it('refuses an administrator, a stranger and a wrong password', async () => {
    expect((await t.app.inject({ method: 'GET', url: privacyApi.export })).statusCode).toBe(401);
    expect((await get(privacyApi.export, admin)).statusCode).toBe(403);
    const wrong = await post(t, privacyApi.deleteAccount, { password: 'not-her-password' }, amina.headers);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.fields.password).toBeTruthy();
    expect((await db().select().from(users).where(eq(users.id, amina.id))).length).toBe(1);
  });

  it('erases her: no sign-in, photos 404 and gone from storage, her name and number nowhere, logged without them', async () => {
    const [row] = await db().select().from(analyses).where(eq(analyses.id, ids.analysis));
    const photoKeys = [
      row.imagePath,
      ...(await db().select().from(analysisPhotos).where(eq(analysisPhotos.analysisId, row.id))).map(
        (p) => p.imagePath,
      ),
    ];
    expect((await get(analysisApi.imagePath(ids.analysis), expert)).statusCode).toBe(200);
    const [sample] = await db()
      .select()
      .from(trainingSamples)
      .where(eq(trainingSamples.sourceAnalysisId, ids.analysis));

    const res = await post(t, privacyApi.deleteAccount, { password: amina.password }, amina.headers);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toMatch(/deleted/);

    // Signed out everywhere, and no sign-in.
    expect((await get(api.auth.me, amina)).statusCode).toBe(401);
    const login = await post(t, api.auth.login, { identifier: amina.phone, password: amina.password });
    expect(login.statusCode).toBe(401);
    // Her photos: 404 to the expert, and gone from storage.
    expect((await get(analysisApi.imagePath(ids.analysis), expert)).statusCode).toBe(404);
    for (const key of photoKeys) expect(await t.deps.storage.exists(key)).toBe(false);
    // Every text column of every table: neither her number nor her name.
    expect(await scanFor(t.deps.database, [amina.phone, 'amina_nakato', amina.email])).toEqual([]);
    // Every column the list of a person's tables names: no row points to her any more.
    const left = [];
    for (const [table, { columns }] of Object.entries(PERSONAL_DATA)) {
      for (const [column, fate] of Object.entries(columns as Record<string, Fate>)) {
        if (typeof fate === 'object') continue;
        const value = column === 'phone' ? amina.phone : amina.id;
        const { rows } = await t.deps.database.execute(
          `select count(*)::int as n from "${table}" where "${column}"::text = $1`,
          [String(value)],
        );
        if (Number(rows[0]!.n) > 0) left.push(`${table}.${column}`);
      }
    }
    expect(left).toEqual([]);
    // The post Brian answered stays, anonymised; her lone post is gone; her comment in the thread stays.
    const postsLeft = await db()
      .select()
      .from(posts)
      .where(inArray(posts.id, [ids.keptPost, ids.lonePost]));
    expect(postsLeft.map((p) => p.id)).toEqual([ids.keptPost]);
    const [former] = await db().select().from(users).where(eq(users.id, postsLeft[0].authorId));
    expect(former).toMatchObject({ username: 'Former member', passwordHash: null, activatedAt: null });
    // She agreed to training: the sample stays, pointing to nobody, and training still uses it.
    const [kept] = await db().select().from(trainingSamples).where(eq(trainingSamples.id, sample.id));
    expect(kept).toMatchObject({ sourceAnalysisId: null, removedAt: null });
    expect(await t.deps.storage.exists(kept.imagePath)).toBe(true);
    // Brian's data is untouched.
    expect((await db().select().from(analyses).where(eq(analyses.userId, brian.id))).length).toBe(1);
    // Her fields and walks are gone; Brian's field stays.
    expect(await db().select().from(fields).where(eq(fields.userId, amina.id))).toEqual([]);
    expect(await db().select().from(scoutingWalks).where(eq(scoutingWalks.id, ids.walk))).toEqual([]);
    expect((await db().select().from(fields).where(eq(fields.userId, brian.id))).length).toBe(1);
    // The administrator's log: when, role, how, counts; nothing of her.
    const log = await get(privacyApi.erasures, admin);
    expect(log.statusCode).toBe(200);
    expect(log.json().results).toEqual([
      expect.objectContaining({
        role: 'farmer',
        requested_via: 'web',
        counts: expect.objectContaining({
          analyses: 1,
          posts_erased: 1,
          posts_kept_anonymised: 1,
          training_samples_kept_anonymised: 1,
        }),
      }),
    ]);
    expect(log.body).not.toContain(amina.phone);
    expect((await get(privacyApi.erasures, brian)).statusCode).toBe(403);
    expect((await db().select().from(consents).where(eq(consents.userId, amina.id))).length).toBe(0);
    expect((await db().select().from(erasureLog)).length).toBe(1);
  });

  it('lets the number sign up again', async () => {
    const res = await post(
      t,
      api.auth.registerFarmer,
      farmerBody({
        phone_number: amina.phone,
        username: 'amina_again',
        password: PASSWORD,
        confirm_password: PASSWORD,
      }),
    );
    expect(res.statusCode, res.body).toBe(201);
  });

  it('erases the training sample of a farmer who did not agree, with its file', async () => {
    const [brianSample] = await db()
      .select()
      .from(trainingSamples)
      .where(eq(trainingSamples.sourceAnalysisId, ids.brianAnalysis));
    const res = await post(t, privacyApi.deleteAccount, { password: brian.password }, brian.headers);
    expect(res.statusCode, res.body).toBe(200);
    expect(await db().select().from(trainingSamples).where(eq(trainingSamples.id, brianSample.id))).toEqual([]);
    expect(await t.deps.storage.exists(brianSample.imagePath)).toBe(false);
    expect(await scanFor(t.deps.database, [brian.phone, brian.username])).toEqual([]);
  });

  it("erases an expert, keeping for farmers the expert's slots and their bookings, and the samples they labelled", async () => {
    const carol = await createUser(t, 'farmer');
    const [slot] = await db()
      .insert(availabilitySlots)
      .values({ expertId: expert.id, startTime: new Date('2026-12-02T08:00Z'), endTime: new Date('2026-12-02T09:00Z') })
      .returning();
    const [booking] = await db()
      .insert(bookings)
      .values({ slotId: slot.id, farmerId: carol.id, topic: 'Beans' })
      .returning();
    const labelled = await db().select().from(trainingSamples).where(eq(trainingSamples.uploaderId, expert.id));
    expect(labelled.length).toBeGreaterThan(0);

    const res = await post(t, privacyApi.deleteAccount, { password: expert.password }, expert.headers);
    expect(res.statusCode, res.body).toBe(200);
    const [kept] = await db().select().from(bookings).where(eq(bookings.id, booking.id));
    expect(kept).toMatchObject({ farmerId: carol.id, topic: 'Beans' });
    const [slotNow] = await db().select().from(availabilitySlots).where(eq(availabilitySlots.id, slot.id));
    const [former] = await db().select().from(users).where(eq(users.id, slotNow.expertId));
    expect(former.username).toBe('Former member');
    expect(slotNow.isActive).toBe(false);
    const samples = await db()
      .select()
      .from(trainingSamples)
      .where(
        inArray(
          trainingSamples.id,
          labelled.map((l) => l.id),
        ),
      );
    expect(samples.map((x) => x.uploaderId)).toEqual(labelled.map(() => null));
    expect(await scanFor(t.deps.database, [expert.phone, expert.username, expert.email])).toEqual([]);
    const log = await get(privacyApi.erasures, admin);
    expect(log.json().results[0]).toMatchObject({ role: 'expert', requested_via: 'web' });
  });

  it("lets an extension officer take their data and erase their account; their notes stay on the farmer's case", async () => {
    const officer = await createUser(t, 'officer', { districts: ['UG-208'] });
    const farmer = await createUser(t, 'farmer');
    const [action] = await db()
      .insert(officerActions)
      .values({
        officerId: officer.id,
        farmerId: farmer.id,
        district: 'UG-208',
        kind: 'called',
        note: 'Sprayed on Monday, will check again',
        createdAt: new Date(),
      })
      .returning();
    // The officer's archive: the districts and the notes they wrote, not whom they were about.
    const mine = await archiveOf(officer);
    expect(JSON.parse(mine.get('profile.json')?.toString() ?? '{}').officer).toMatchObject({ districts: ['UG-208'] });
    const written = JSON.parse(mine.get('other.json')?.toString() ?? '{}').officer_notes_written;
    expect(written).toEqual([expect.objectContaining({ kind: 'called', note: 'Sprayed on Monday, will check again' })]);
    expect([...mine.values()].map((b) => b.toString()).join('\n')).not.toContain(farmer.phone);
    // The farmer's archive holds what officers noted about them, not who.
    const theirs = JSON.parse((await archiveOf(farmer)).get('other.json')?.toString() ?? '{}');
    expect(theirs.officer_notes_about_me).toEqual([
      expect.objectContaining({ note: 'Sprayed on Monday, will check again' }),
    ]);
    expect(JSON.stringify(theirs)).not.toContain(officer.username);

    const res = await post(t, privacyApi.deleteAccount, { password: officer.password }, officer.headers);
    expect(res.statusCode, res.body).toBe(200);
    const [kept] = await db().select().from(officerActions).where(eq(officerActions.id, action.id));
    expect(kept).toMatchObject({ officerId: null, farmerId: farmer.id, note: 'Sprayed on Monday, will check again' });
    expect(await scanFor(t.deps.database, [officer.phone, officer.username, officer.email])).toEqual([]);
    const log = await get(privacyApi.erasures, admin);
    expect(log.json().results[0]).toMatchObject({
      role: 'officer',
      counts: expect.objectContaining({ officer_notes_kept_anonymised: 1 }),
    });
    // A page at a time, newest first.
    const all = log.json();
    expect(all.count).toBeGreaterThanOrEqual(3);
    const second = (await get(`${privacyApi.erasures}?page=2&page_size=1`, admin)).json();
    expect(second).toMatchObject({ count: all.count, previous: 1, results: [all.results[1]] });
    expect((await get(`${privacyApi.erasures}?page=0`, admin)).statusCode).toBe(400);
  });
});
