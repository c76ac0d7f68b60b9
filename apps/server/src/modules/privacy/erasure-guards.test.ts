import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { unpackTar } from 'modern-tar';
import { communityApi, communityPath, privacyApi } from '@kutu/contract';
import {
  availabilitySlots,
  bookings,
  callbackRequests,
  notifications,
  posts,
  responses,
  userProfiles,
  users,
} from '../../db/schema/index.ts';
import { createTestApp, joinSmsParts, type TestContext } from '../../../test/support/app.ts';
import { codeIn, post } from '../../../test/support/auth-flow.ts';
import { errorOf } from '../../../test/support/errors.ts';
import { createUser, type TestUser } from '../../../test/support/users.ts';

/** Who may erase what, and how: the password, counted codes, every role's own data, nothing of the person left in view. */
// Erasures rewrite database files and codes are argon2-hashed: slow on a busy machine.
describe('erasure: confirmation, every role, and what others still see', { timeout: 60_000 }, () => {
  let t: TestContext;
  const db = () => t.deps.database.db;
  const get = (url: string, who: TestUser) => t.app.inject({ method: 'GET', url, headers: who.headers });
  const lastSms = (to: string) =>
    joinSmsParts(t.outbox.list().filter((m) => m.channel === 'sms' && m.to === to))[0]?.text ?? '';
  const exists = async (id: number) => (await db().select().from(users).where(eq(users.id, id))).length === 1;
  const archiveOf = async (who: TestUser) => {
    const res = await get(privacyApi.export, who);
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    const entries = await unpackTar(gunzipSync(res.rawPayload));
    return new Map(entries.map((e) => [e.header.name.replace('kutu-my-data/', ''), Buffer.from(e.data ?? [])]));
  };

  beforeAll(async () => {
    t = await createTestApp({ env: { AUTH_RATE_LIMIT_MAX: '1000' } });
  });
  afterAll(() => t.close());

  it('judges at most 5 of 40 deletion codes sent at once, and then refuses the right one', async () => {
    const farmer = await createUser(t, 'farmer');
    await db().update(users).set({ passwordHash: null }).where(eq(users.id, farmer.id));
    expect((await post(t, privacyApi.deleteCode, {}, farmer.headers)).statusCode).toBe(204);
    const code = codeIn(lastSms(farmer.phone));
    const guesses = Array.from({ length: 40 }, (_, i) => String((Number(code) + 1 + i) % 10_000).padStart(4, '0'));
    const replies = await Promise.all(
      guesses.map((guess) => post(t, privacyApi.deleteAccount, { code: guess }, farmer.headers)),
    );
    expect(replies.every((r) => r.statusCode === 400)).toBe(true);
    expect(replies.filter((r) => /Wrong code\. You have \d+ tr/.test(r.body)).length).toBeLessThanOrEqual(4);
    const right = await post(t, privacyApi.deleteAccount, { code }, farmer.headers);
    expect(errorOf(right).message).toBe('Too many wrong codes. Request a new code.');
    expect(await exists(farmer.id)).toBe(true);
  });

  it('erases an account that has a password only with the password, not with a code', async () => {
    const farmer = await createUser(t, 'farmer');
    const asked = await post(t, privacyApi.deleteCode, {}, farmer.headers);
    expect(asked.statusCode).toBe(400);
    expect(errorOf(asked).message).toMatch(/password/i);
    const byCode = await post(t, privacyApi.deleteAccount, { code: '1234' }, farmer.headers);
    expect(byCode.statusCode).toBe(400);
    expect(errorOf(byCode).fields?.password).toBeTruthy();
    expect(await exists(farmer.id)).toBe(true);
  });

  it('lets pending and refused experts and officers take their data and delete their account', async () => {
    for (const [role, vetting] of [
      ['expert', 'pending'],
      ['expert', 'refused'],
      ['officer', 'pending'],
      ['officer', 'refused'],
    ] as const) {
      const who = await createUser(t, role, { vetting });
      const files = await archiveOf(who);
      expect(JSON.parse(files.get('profile.json')?.toString() ?? '{}').account.id).toBe(who.id);
      const res = await post(t, privacyApi.deleteAccount, { password: who.password }, who.headers);
      expect(res.statusCode, `${vetting} ${role}: ${res.body}`).toBe(200);
      expect(await exists(who.id)).toBe(false);
    }
  });

  it('answers two delete requests sent at once as deleted, never as an administrator', async () => {
    const farmer = await createUser(t, 'farmer');
    const both = await Promise.all(
      [1, 2].map(() => post(t, privacyApi.deleteAccount, { password: farmer.password }, farmer.headers)),
    );
    for (const res of both) {
      expect([200, 401], res.body).toContain(res.statusCode);
      expect(res.body).not.toMatch(/administrator/i);
    }
    expect(both.some((r) => r.statusCode === 200)).toBe(true);
    expect(await exists(farmer.id)).toBe(false);
  });

  it("keeps the officer who closed a farmer's call-back, and any other person's id, out of the farmer's archive", async () => {
    const farmer = await createUser(t, 'farmer');
    const officer = await createUser(t, 'officer');
    const now = new Date();
    await db()
      .insert(callbackRequests)
      .values({ userId: farmer.id, language: 'en', channel: 'sms', createdAt: now, doneAt: now, doneBy: officer.id });
    const other = JSON.parse((await archiveOf(farmer)).get('other.json')?.toString() ?? '{}');
    expect(other.callback_requests).toHaveLength(1);
    expect(other.callback_requests[0]).toMatchObject({ channel: 'sms' });
    expect(JSON.stringify(other.callback_requests[0])).not.toMatch(/doneBy|done_by/);
  });

  it("cancels an erased expert's pending and coming bookings and tells each farmer", async () => {
    const expert = await createUser(t, 'expert', { username: 'expert_leaving' });
    const farmer = await createUser(t, 'farmer');
    const start = new Date(t.clock.now().getTime() + 3 * 24 * 3600_000);
    const [slot] = await db()
      .insert(availabilitySlots)
      .values({ expertId: expert.id, startTime: start, endTime: new Date(start.getTime() + 3600_000) })
      .returning();
    const [booking] = await db()
      .insert(bookings)
      .values({ slotId: slot.id, farmerId: farmer.id, topic: 'Rust on my maize' })
      .returning();

    const res = await post(t, privacyApi.deleteAccount, { password: expert.password }, expert.headers);
    expect(res.statusCode, res.body).toBe(200);
    const [after] = await db().select().from(bookings).where(eq(bookings.id, booking.id));
    expect(after).toMatchObject({ status: 'cancelled', cancelledBy: 'expert' });
    const told = await db().select().from(notifications).where(eq(notifications.userId, farmer.id));
    expect(told.map((n) => n.type)).toContain('booking_cancelled');
    expect(JSON.stringify(told)).not.toContain('expert_leaving');
    expect(lastSms(farmer.phone)).toMatch(/cancelled the consultation/);
    expect(lastSms(farmer.phone)).not.toContain('expert_leaving');
  });

  it("shows nobody the erased person's name or number in the posts and comments that stay", async () => {
    const amina = await createUser(t, 'farmer', { username: 'amina_kept', phone: '+256772555123' });
    const brian = await createUser(t, 'farmer');
    await db().insert(userProfiles).values({
      userId: amina.id,
      idType: 'NATIONAL_ID',
      idNumber: 'CM900123',
      organisationName: 'Self',
      firstName: 'Aminata',
      lastName: 'Nakalembe',
      gender: 'FEMALE',
      physicalAddress: 'Mbale',
      nationality: 'Ugandan',
      dob: '1990-01-01',
      occupation: 'Farmer',
    });
    const [kept] = await db()
      .insert(posts)
      .values({
        authorId: amina.id,
        title: 'Aminata here: rust?',
        content: 'I am Aminata Nakalembe (amina_kept). Call me on +256772555123 or 0772555123.',
        cropType: 'MAIZE',
        diseaseType: 'common_rust',
        urgencyLevel: 'high',
        status: 'approved',
      })
      .returning();
    const [elsewhere] = await db()
      .insert(posts)
      .values({
        authorId: brian.id,
        title: 'Beans',
        content: 'Yellow leaves',
        cropType: 'BEANS',
        diseaseType: 'none',
        urgencyLevel: 'low',
        status: 'approved',
      })
      .returning();
    await db()
      .insert(responses)
      .values([
        { postId: kept.id, authorId: brian.id, content: 'Same in my field', status: 'approved' },
        {
          postId: elsewhere.id,
          authorId: amina.id,
          content: 'Amina Nakalembe says: text 0772555123',
          status: 'approved',
        },
      ]);

    const res = await post(t, privacyApi.deleteAccount, { password: amina.password }, amina.headers);
    expect(res.statusCode, res.body).toBe(200);
    const shown = [
      (await get(communityPath(communityApi.post, { id: kept.id }), brian)).body,
      (await get(communityPath(communityApi.post, { id: elsewhere.id }), brian)).body,
    ].join('\n');
    expect(shown).toContain('Same in my field');
    for (const trace of ['amina_kept', 'Aminata', 'Nakalembe', '772555123']) expect(shown).not.toContain(trace);
  });
});
