import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { phoneApi, SMALL_COUNT_MIN, SMALL_COUNT_WORDS, USSD_SCREEN_MAX } from '@kutu/contract';
import {
  analyses,
  availabilitySlots,
  bookings,
  callbackRequests,
  clinicVisits,
  expertReviews,
  farmerProfiles,
  followUps,
  users,
} from '../../db/schema/index.ts';
import { createTestApp, joinSmsParts, type TestContext, testDelivery } from '../../../test/support/app.ts';
import { createUser, type TestUser } from '../../../test/support/users.ts';
import { createFollowUpService } from '../followup/followup.service.ts';
import { createFieldsService } from '../fields/fields.service.ts';
import { insertField } from '../../../test/support/fields.ts';
import { createConsentService } from '../privacy/consent.service.ts';
import { createEscalationService } from '../review/escalation.service.ts';
import { OUTBREAK_ALERT_QUEUE } from '../outbreak/outbreak.service.ts';
import { weekStartOf, weeksBefore } from '../../lib/iso-weeks.ts';
import { WRONG_SECRET_MAX } from '../../lib/secret-tries.ts';
import { fieldPhotoSql, followUpSources } from '../../ports.ts';

const KEY = 'gateway-secret-for-the-ussd-tests';
let session = 0;

describe('basic phones: USSD menu and SMS both ways', () => {
  let t: TestContext;
  let expert: TestUser;
  const db = () => t.deps.database.db;

  beforeAll(async () => {
    t = await createTestApp({ env: { AT_CALLBACK_SECRET: KEY, PHONE_RATE_LIMIT_MAX: '10000' }, workJobs: true });
    t.clock.set(new Date('2026-11-20T08:00:00Z'));
    expert = await createUser(t, 'expert');
  });
  afterAll(() => t.close());

  /** One gateway request: the screen text (without CON/END) and whether it waits for input. */
  async function dial(phone: string, text: string, sessionId = `s${session}`) {
    const res = await t.app.inject({
      method: 'POST',
      url: `${phoneApi.ussd}?key=${KEY}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        sessionId,
        serviceCode: '*384*46#',
        phoneNumber: phone,
        networkCode: '63902',
        text,
      }).toString(),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.body).toMatch(/^(CON|END) /);
    const screen = res.body.slice(4);
    expect(screen.length, screen).toBeLessThanOrEqual(USSD_SCREEN_MAX);
    return { screen, end: res.body.startsWith('END') };
  }
  /** A whole session: every answer typed in turn, each screen measured; the last one returned. */
  async function walk(phone: string, answers: string[]) {
    session += 1;
    let last = await dial(phone, '');
    for (let i = 1; i <= answers.length; i++) last = await dial(phone, answers.slice(0, i).join('*'));
    return last;
  }
  /** SMS to a number, oldest first (the outbox lists the newest first). */
  const sms = (to: string) =>
    joinSmsParts(t.outbox.list().filter((m) => m.channel === 'sms' && m.to === to))
      .map((m) => m.text)
      .reverse();
  let smsId = 0;
  /** An inbound SMS as the gateway posts it, with its own id unless `id` repeats one. */
  const inbound = (from: string, text: string, key = KEY, id = `ATXid_in_${++smsId}`) =>
    t.app.inject({
      method: 'POST',
      url: `${phoneApi.sms}?key=${key}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        from,
        to: '12345',
        text,
        date: '2026-11-20 08:00:00',
        id,
        linkId: 'l1',
      }).toString(),
    });
  const userOf = async (phone: string) => (await db().select().from(users).where(eq(users.phone, phone)))[0];

  it('answers 403 without the gateway key, and to a wrong one', async () => {
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const payload = 'sessionId=a&serviceCode=*1%23&phoneNumber=%2B256700000001&text=';
    for (const url of [phoneApi.ussd, `${phoneApi.ussd}?key=wrong-key-of-the-same-size-xxxxxx`]) {
      expect((await t.app.inject({ method: 'POST', url, headers: form, payload })).statusCode).toBe(403);
    }
    expect((await inbound('+256700000001', 'HELP', 'nope')).statusCode).toBe(403);
  });

  it('refuses to start with a PUBLIC_URL that makes a USSD screen longer than the gateway takes', async () => {
    await expect(
      createTestApp({
        env: { PUBLIC_URL: `https://kutu.${'farmers-of-the-east-african-region.'.repeat(2)}example.org` },
      }),
    ).rejects.toThrow(/PUBLIC_URL makes the USSD terms screen \d{3} characters, over the gateway's 182/);
  });

  it('acts once on a replayed request: the same session and answers repeat the reply, not the action', async () => {
    const farmer = await createUser(t, 'farmer');
    expect((await userOf(farmer.phone)).smsAlerts).toBe(true);
    await dial(farmer.phone, '', 'replayed');
    await dial(farmer.phone, '2', 'replayed');
    const first = await dial(farmer.phone, '2*1', 'replayed');
    expect(first.end).toBe(true);
    expect((await userOf(farmer.phone)).smsAlerts).toBe(false);
    for (let i = 0; i < 2; i++) expect(await dial(farmer.phone, '2*1', 'replayed')).toEqual(first);
    expect((await userOf(farmer.phone)).smsAlerts).toBe(false);
    // A new session is a new request: alerts on again.
    await dial(farmer.phone, '2*1', 'next-session');
    expect((await userOf(farmer.phone)).smsAlerts).toBe(true);
  });

  it('acts once on an inbound SMS the gateway posts again with the same id, and replies once', async () => {
    const farmer = await createUser(t, 'farmer');
    for (let i = 0; i < 3; i++)
      expect((await inbound(farmer.phone, 'CALL ME', KEY, 'ATXid_in_again')).statusCode).toBe(200);
    expect(await db().select().from(callbackRequests).where(eq(callbackRequests.userId, farmer.id))).toHaveLength(1);
    expect(sms(farmer.phone)).toHaveLength(1);
    // Another message is another request, even with the same words.
    await inbound(farmer.phone, 'CALL ME');
    expect(sms(farmer.phone)).toHaveLength(2);
  });

  it('cuts off an address that keeps guessing the gateway key, never the right key from it', async () => {
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const payload = 'sessionId=g&serviceCode=*1%23&phoneNumber=%2B256700000002&text=';
    const from = (remoteAddress: string, key: string) =>
      t.app.inject({ method: 'POST', url: `${phoneApi.ussd}?key=${key}`, headers: form, payload, remoteAddress });
    for (let i = 0; i < WRONG_SECRET_MAX; i++) expect((await from('203.0.113.9', `guess-${i}`)).statusCode).toBe(403);
    const cut = await from('203.0.113.9', 'guess-again');
    expect(cut.statusCode).toBe(429);
    expect(Number(cut.headers['retry-after'])).toBeGreaterThan(60);
    // The gateway may share that address (its callbacks come from a few addresses every customer uses):
    // the right key still passes, from it and from any other.
    expect((await from('203.0.113.9', KEY)).statusCode).toBe(200);
    expect((await from('198.51.100.7', KEY)).statusCode).toBe(200);
    expect((await from('203.0.113.9', 'guess-once-more')).statusCode).toBe(429);
  });

  it('registers a farmer in Luganda, turns alerts off and on, and shows rust in the district under the small-count rule', async () => {
    const phone = '+256772000101';
    const done = await walk(phone, ['3', '1', '1', 'Nakato', '1', 'Kamp', '1', '3', '1', '2']);
    expect(done.end).toBe(true);
    expect(done.screen).toContain('Tukusanyukidde Nakato');
    const user = await userOf(phone);
    expect(user).toMatchObject({ language: 'lg', district: 'UG-102', role: 'farmer', passwordHash: null, email: null });
    expect(user.activatedAt).not.toBeNull();
    // Alerts are on after registering: the menu says so and turns them off, then on again.
    expect((await walk(phone, ['2'])).screen).toContain('BUKOLA');
    expect((await walk(phone, ['2', '1'])).end).toBe(true);
    expect((await userOf(phone)).smsAlerts).toBe(false);
    expect((await walk(phone, ['2', '1'])).screen).toContain('Obubaka bwa SMS bukola');
    expect((await userOf(phone)).smsAlerts).toBe(true);
    // A district with no case reads "0 to 2", not "under 3" (which says there are some): none and one or two
    // look alike (decision 0052), so the words say both.
    const empty = (await walk(phone, ['1'])).screen;
    expect(empty).toContain(`Kasooli: 0-${SMALL_COUNT_WORDS.max}, tekyuka`);
    expect(empty).toContain(`Bijanjaalo: 0-${SMALL_COUNT_WORDS.max}, tekyuka`);
    expect(empty).not.toMatch(/wansi wa/);
    // Counted as every other surface counts (decision 0052): a week of 1 or 2 adds nothing, to the total or
    // the trend. Maize: one under the minimum this week reads as none does and is steady. Beans: the minimum last week and 1 now is the minimum, not one more,
    // and falling: a week with fewer cases than the one before never reads rising (the contract's trendDirection).
    const week = weekStartOf(t.clock.now());
    const before = weeksBefore(week, 1);
    await t.deps.database.execute(
      `insert into outbreak_counts (district, crop, week_start, demo, confirmed, reported) values ('UG-102', 'maize', '${week}', false, ${SMALL_COUNT_MIN - 1}, 2), ('UG-102', 'beans', '${before}', false, ${SMALL_COUNT_MIN}, 3), ('UG-102', 'beans', '${week}', false, 1, 1)`,
    );
    const rust = (await walk(phone, ['1'])).screen;
    expect(rust.split('\n')[1]).toBe(empty.split('\n')[1]);
    expect(rust).toContain(`Bijanjaalo: ${SMALL_COUNT_MIN}, ekendeera`);
    // The menu number of "call me" comes from the home array, never written in the text.
    expect((await walk(phone, ['1', '1'])).screen).toContain('Kebera ebikoola');
    expect((await walk(phone, ['1', '1'])).screen).toContain('(menyu 4)');
  });

  it('goes back with 0 and home with 00, and repeats a screen with a hint on wrong input (English and Kiswahili)', async () => {
    const en = await createUser(t, 'farmer');
    const home = (await walk(en.phone, [])).screen;
    // Built from the home array: the text as it always read, numbered 1 to 8, and 9 is no option.
    expect(home).toBe(
      'Kutu\n1 Rust in my district\n2 SMS alerts\n3 My consultations\n4 Ask an expert to call me\n5 My last diagnosis\n6 Follow-up question\n7 Language or district\n8 My fields',
    );
    expect((await walk(en.phone, ['9'])).screen).toBe(`Type a number shown.\n${home}`);
    expect((await walk(en.phone, ['7', '0'])).screen).toBe(home);
    expect((await walk(en.phone, ['7', '1', '00'])).screen).toBe(home);
    const wrong = (await walk(en.phone, ['10'])).screen;
    expect(wrong).toBe(`Type a number shown.\n${home}`);
    expect((await walk(en.phone, ['1'])).screen).toContain('You have not chosen your district');
    const sw = await createUser(t, 'farmer', { language: 'sw' });
    const bad = (await walk(sw.phone, ['7', 'x'])).screen;
    expect(bad.split('\n')[0]).toBe('Andika namba iliyopo.');
    expect(bad).toContain('0 Rudi 00 Mwanzo');
    // A district by name pages: "Ka" has more than one page of Ugandan districts.
    const page2 = (await walk(sw.phone, ['7', '2', '1', 'Ka', '9'])).screen;
    expect(page2).toMatch(/^Chagua \(2\/\d+\):/);
    expect((await walk(sw.phone, ['7', '2', '2', 'Kisu', '1'])).screen).toBe('Wilaya yako sasa ni Kisumu.');
    expect((await userOf(sw.phone)).district).toBe('KE-17');
  });

  it('asks an expert to call back; the expert sees it and marks it done; farmers may not see the list', async () => {
    const farmer = await createUser(t, 'farmer', { language: 'lg' });
    expect((await walk(farmer.phone, ['4', '1'])).screen).toContain('Omukugu ajja kukukubira');
    expect((await walk(farmer.phone, ['4', '1'])).screen).toBe('Wasaba dda. Omukugu ajja kukukubira mangu.');
    const list = await t.app.inject({
      method: 'GET',
      url: `${phoneApi.callbacks}?page=1&page_size=10`,
      headers: expert.headers,
    });
    expect(list.statusCode).toBe(200);
    const mine = list.json().results.filter((r: { phone: string }) => r.phone === farmer.phone);
    expect(mine).toMatchObject([{ language: 'lg', channel: 'ussd', done_at: null }]);
    expect((await t.app.inject({ method: 'GET', url: phoneApi.callbacks, headers: farmer.headers })).statusCode).toBe(
      403,
    );
    const done = await t.app.inject({
      method: 'POST',
      url: phoneApi.callbackDonePath(mine[0].id),
      headers: expert.headers,
    });
    expect(done.statusCode).toBe(204);
    const [row] = await db().select().from(callbackRequests).where(eq(callbackRequests.id, mine[0].id));
    expect(row.doneBy).toBe(expert.id);
  });

  it('shows the last diagnosis and answers the follow-up by phone: worse goes to the expert queue', async () => {
    const farmer = await createUser(t, 'farmer');
    const [a] = await db()
      .insert(analyses)
      .values({
        userId: farmer.id,
        imagePath: 'x.jpg',
        outcome: 'diagnosis',
        rustClass: 'common_rust',
        confidence: 0.96,
        probabilities: { common_rust: 0.96, healthy: 0.02, other_disease: 0.02 },
        modelVersion: 'test',
        crop: 'maize',
        createdAt: new Date('2026-11-10T08:00:00Z'),
      })
      .returning();
    expect((await walk(farmer.phone, ['5'])).screen).toContain('Last diagnosis, 10/11/2026, Maize: rust');
    // A leaf says rust, not how much of the field has it: no spray from one leaf, a walk is asked for.
    const todo = (await walk(farmer.phone, ['5', '1'])).screen;
    expect(todo).toContain(
      'Will a spray pay? Count plants with rust in 5 places across the field (10 each), then choose 8 My fields.',
    );
    expect(todo).not.toMatch(/spray a fungicide/i);
    await db()
      .insert(followUps)
      .values({
        userId: farmer.id,
        analysisId: a.id,
        fieldId: (await insertField(db(), farmer.id)).id,
        crop: 'maize',
        dueAt: new Date('2026-11-17T08:00:00Z'),
        state: 'sent',
        createdAt: new Date('2026-11-10T08:00:00Z'),
      });
    expect((await walk(farmer.phone, ['6'])).screen).toContain('Kutu found rust on your maize field');
    expect((await walk(farmer.phone, ['6', '3'])).screen).toContain('An expert will look at your case');
    const [reminder] = await db().select().from(followUps).where(eq(followUps.analysisId, a.id));
    expect(reminder).toMatchObject({ state: 'compared', outcome: 'worse', escalated: true });
    const [queued] = await db().select().from(expertReviews).where(eq(expertReviews.analysisId, a.id));
    expect(queued.askedAt).not.toBeNull();
    expect((await walk(farmer.phone, ['6'])).screen).toContain('No follow-up question now');
  });

  it('STOP in Kiswahili stops the next outbreak alert and reminder SMS; START brings them back', async () => {
    const stopper = await createUser(t, 'farmer', { language: 'sw' });
    const other = await createUser(t, 'farmer');
    await db().update(users).set({ district: 'UG-105' }).where(eq(users.id, stopper.id));
    await db().update(users).set({ district: 'UG-105' }).where(eq(users.id, other.id));
    expect((await inbound(stopper.phone, 'acha')).statusCode).toBe(200);
    expect(sms(stopper.phone).at(-1)).toBe('Kutu: hutapokea SMS zaidi kutoka Kutu. Tuma ANZA kuzipata tena.');
    expect((await userOf(stopper.phone)).smsStoppedAt).not.toBeNull();
    const before = sms(stopper.phone).length;

    const alert = async () => {
      const { rows } = await t.deps.database.execute(
        `insert into outbreak_alerts (district, crop, source_district, raised_at) values ('UG-105', 'maize', 'UG-105', now()) returning id`,
      );
      const id = Number(rows[0].id);
      const seen = sms(other.phone).length;
      await t.deps.jobs.send(OUTBREAK_ALERT_QUEUE, { alertId: id });
      await expect.poll(() => sms(other.phone).length, { timeout: 10_000 }).toBeGreaterThan(seen);
      await t.deps.database.execute(`update outbreak_alerts set ended_at = now() where id = ${id}`);
    };
    const reminder = async () => {
      const [a] = await db()
        .insert(analyses)
        .values({
          userId: stopper.id,
          imagePath: 'y.jpg',
          outcome: 'diagnosis',
          rustClass: 'common_rust',
          confidence: 0.9,
          probabilities: { common_rust: 0.9 },
          modelVersion: 'test',
          crop: 'maize',
        })
        .returning();
      await db().update(followUps).set({ state: 'lapsed' }).where(eq(followUps.userId, stopper.id));
      await db()
        .insert(followUps)
        .values({
          userId: stopper.id,
          analysisId: a.id,
          fieldId: (await insertField(db(), stopper.id)).id,
          crop: 'maize',
          dueAt: new Date('2026-11-19T08:00:00Z'),
          createdAt: new Date('2026-11-12T08:00:00Z'),
        });
      const sweeper = createFollowUpService(
        {
          db: db(),
          clock: t.clock,
          delivery: testDelivery(t),
          config: t.deps.config,
        },
        createEscalationService(db()),
        createFieldsService({ db: db(), clock: t.clock }, fieldPhotoSql),
        followUpSources,
      );
      expect(await sweeper.sendDue()).toBe(1);
    };
    // The maize the stopper grows (their profile) makes them a recipient of maize alerts.
    await alert();
    await reminder();
    expect(sms(stopper.phone).length).toBe(before);

    await inbound(stopper.phone, 'ANZA');
    expect(sms(stopper.phone).at(-1)).toBe('Kutu: SMS kutoka Kutu zimerudi. Tuma ACHA kuzisimamisha.');
    await alert();
    await reminder();
    const after = sms(stopper.phone).slice(before + 1);
    expect(after).toHaveLength(2);
    expect(after[1]).toContain('Kutu: wakati wa kutembea shamba');
  });

  it.each([
    ['en', 'STOP', 'alerts on', 'Kutu: STOP lifted: SMS from Kutu are on again'],
    ['sw', 'ACHA', 'ARIFA WASHA', 'Kutu: ACHA imeondolewa: SMS kutoka Kutu zimerudi'],
    ['lg', 'KOMYA', 'obubaka koleeza', 'Kutu: KOMYA eggyiddwawo: SMS okuva ku Kutu zizzeemu'],
  ] as const)(
    'ALERTS ON after STOP (%s) says that every SMS is back, and records the consent',
    async (language, stop, on, said) => {
      const farmer = await createUser(t, 'farmer', { language });
      await db().update(users).set({ district: 'UG-105' }).where(eq(users.id, farmer.id));
      await inbound(farmer.phone, stop);
      expect((await userOf(farmer.phone)).smsStoppedAt).not.toBeNull();
      await inbound(farmer.phone, on);
      expect((await userOf(farmer.phone)).smsStoppedAt).toBeNull();
      expect(sms(farmer.phone).at(-1)).toMatch(new RegExp(`^${said}.*Masaka`));
      const consent = await createConsentService({ db: db(), clock: t.clock }).current(farmer.id);
      expect(consent.sms).toMatchObject({ granted: true, channel: 'sms' });
      // Alerts on again while SMS were never stopped: the plain reply.
      await inbound(farmer.phone, on);
      expect(sms(farmer.phone).at(-1)).not.toMatch(said);
    },
  );

  it('alerts on by USSD after STOP says that every SMS is back, and records the consent as given by USSD', async () => {
    const farmer = await createUser(t, 'farmer');
    await inbound(farmer.phone, 'STOP');
    expect((await walk(farmer.phone, ['2'])).screen).toContain('OFF');
    const done = await walk(farmer.phone, ['2', '1']);
    expect(done.screen).toMatch(/^SMS from Kutu are on again \(STOP lifted\), and SMS alerts are ON/);
    expect((await userOf(farmer.phone)).smsStoppedAt).toBeNull();
    expect((await createConsentService({ db: db(), clock: t.clock }).current(farmer.id)).sms).toMatchObject({
      granted: true,
      channel: 'ussd',
    });
  });

  it('acts on SMS keywords in the sender’s language and tells an unknown number how to register', async () => {
    const farmer = await createUser(t, 'farmer', { language: 'lg' });
    await inbound(farmer.phone, 'OBUBAKA ZIKIZA');
    expect((await userOf(farmer.phone)).smsAlerts).toBe(false);
    expect(sms(farmer.phone).at(-1)).toContain('buyimiriziddwa');
    await inbound(farmer.phone, 'district masaka');
    expect((await userOf(farmer.phone)).district).toBe('UG-105');
    expect(sms(farmer.phone).at(-1)).toBe('Kutu: disitulikiti yo kati Masaka.');
    await inbound(farmer.phone, 'nkubira');
    const [asked] = await db().select().from(callbackRequests).where(eq(callbackRequests.userId, farmer.id));
    expect(asked).toMatchObject({ channel: 'sms', language: 'lg' });
    await inbound('+256700999111', 'MSAADA');
    expect(sms('+256700999111').at(-1)).toContain('namba hii haina akaunti ya Kutu');
  });

  it('shows the next consultation and its state', async () => {
    const farmer = await createUser(t, 'farmer');
    expect((await walk(farmer.phone, ['3'])).screen).toContain('You have no consultation booked');
    const [slot] = await db()
      .insert(availabilitySlots)
      .values({
        expertId: expert.id,
        startTime: new Date('2026-11-24T07:00:00Z'),
        endTime: new Date('2026-11-24T08:00:00Z'),
      })
      .returning();
    await db().insert(bookings).values({ slotId: slot.id, farmerId: farmer.id, topic: 'Rust' });
    expect((await walk(farmer.phone, ['3'])).screen).toBe(
      `Next consultation: 24/11/2026 10:00 with ${expert.username}. Waiting for the expert to accept.\n0 Back 00 Home`,
    );
  });

  it('limits callbacks per phone number, not per address', async () => {
    const limited = await createTestApp({ env: { AT_CALLBACK_SECRET: KEY, PHONE_RATE_LIMIT_MAX: '3' } });
    try {
      const call = (phone: string) =>
        limited.app.inject({
          method: 'POST',
          url: `${phoneApi.ussd}?key=${KEY}`,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: new URLSearchParams({ sessionId: 'r', serviceCode: '*1#', phoneNumber: phone, text: '' }).toString(),
        });
      // One number however it is written: the limit counts the number, not the string.
      for (const spelling of ['+256700000071', '256700000071', '+256 700 000 071'])
        expect((await call(spelling)).statusCode).toBe(200);
      expect((await call('(256) 700-000-071')).statusCode).toBe(429);
      expect((await call('+256700000071')).statusCode).toBe(429);
      expect((await call('+256700000072')).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('lets administrators and experts try the menu with their own number only', async () => {
    const farmer = await createUser(t, 'farmer');
    const step = (headers: { authorization: string }, phone: string, text = '') =>
      t.app.inject({ method: 'POST', url: phoneApi.simulate, headers, payload: { session_id: 'sim', phone, text } });
    const own = await step(expert.headers, expert.phone, '7');
    expect(own.statusCode).toBe(200);
    expect(own.json()).toMatchObject({ end: false, screen: expect.stringContaining('1 Language') });
    expect((await step(expert.headers, farmer.phone)).statusCode).toBe(403);
    expect((await step(farmer.headers, farmer.phone)).statusCode).toBe(403);
  });

  it('alerts the farmers a plant clinic signed up with consent, and leaves an unconfirmed web sign-up alone', async () => {
    const district = 'UG-110';
    let n = 0;
    /** A farmer of the district growing maize, not activated: made at a clinic, or a web sign-up never confirmed. */
    const pending = async (web: boolean) => {
      n += 1;
      const [user] = await db()
        .insert(users)
        .values({
          email: web ? `pending${n}_${process.pid}@example.com` : null,
          username: `pending${n}_${process.pid}`,
          role: 'farmer',
          phone: `+25677${String(process.pid % 1000).padStart(3, '0')}88${String(n).padStart(2, '0')}`,
          language: 'en',
          district,
          passwordHash: web ? 'not-a-real-hash' : null,
          createdAt: t.clock.now(),
        })
        .returning();
      await db()
        .insert(farmerProfiles)
        .values({ userId: user.id, farmLocation: 'x', farmSize: 0, cropTypes: ['MAIZE'] });
      return user;
    };
    const clinicFarmer = await pending(false);
    await db().insert(clinicVisits).values({
      expertId: expert.id,
      farmerId: clinicFarmer.id,
      crop: 'maize',
      growthStage: 'vegetative',
      shareAffected: 10,
      analysisIds: [],
      consentAt: t.clock.now(),
      createdAt: t.clock.now(),
    });
    const webSignUp = await pending(true);
    const { rows } = await t.deps.database.execute(
      `insert into outbreak_alerts (district, crop, source_district, raised_at) values ('${district}', 'maize', '${district}', now()) returning id`,
    );
    await t.deps.jobs.send(OUTBREAK_ALERT_QUEUE, { alertId: Number(rows[0].id) });
    await expect.poll(() => sms(clinicFarmer.phone).length, { timeout: 10_000 }).toBe(1);
    expect(sms(clinicFarmer.phone)[0]).toContain('rust');
    expect(sms(webSignUp.phone)).toEqual([]);

    // The web sign-up's number by USSD: the caller is not its account; the menu changes nothing of it.
    expect((await walk(webSignUp.phone, [])).screen).toContain('1 English');
    expect((await walk(webSignUp.phone, ['1'])).screen).toContain('1 Register');
    expect((await walk(webSignUp.phone, ['1', '1', '1', 'Mukasa', '1', 'Kamp', '1', '1', '1', '1'])).screen).toContain(
      'This number already has a Kutu sign-up waiting for the code',
    );
    expect(await userOf(webSignUp.phone)).toMatchObject({ id: webSignUp.id, district, activatedAt: null });
    await inbound(webSignUp.phone, 'district masaka');
    expect((await userOf(webSignUp.phone)).district).toBe(district);
    // The clinic's farmer answers their own menu.
    expect((await walk(clinicFarmer.phone, [])).screen).toContain('1 Rust in my district');
  });
});
