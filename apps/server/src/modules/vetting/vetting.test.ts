import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Application, ApplicationPage, NotificationList, UserRecord } from '@kutu/contract';
import { t as translate } from '../../i18n/i18n.ts';
import { createTestApp, type TestContext } from '../../../test/support/app.ts';
import { createUser, type TestUser } from '../../../test/support/users.ts';
import { activeAccount, lastSms, login } from '../../../test/support/auth-flow.ts';
import { errorOf } from '../../../test/support/errors.ts';
import { vettingApi, reviewApi, api, notificationsApi, extensionApi } from '@kutu/contract';

const APPLICATIONS = vettingApi.of('expert').applications;
const approve = (id: number) => vettingApi.of('expert').approvePath(id);
const refuse = (id: number) => vettingApi.of('expert').refusePath(id);

describe('expert vetting (docs/decisions/0027)', () => {
  let t: TestContext;
  let admin: TestUser;
  let farmer: TestUser;
  let approved: TestUser;
  let pending: TestUser;
  let refused: TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await createUser(t, 'admin');
    farmer = await createUser(t, 'farmer');
    approved = await createUser(t, 'expert');
    pending = await createUser(t, 'expert', { vetting: 'pending', language: 'sw' });
    refused = await createUser(t, 'expert', { vetting: 'refused' });
  }, 180_000);
  afterAll(() => t.close());

  const send = (method: string, url: string, user: TestUser, payload?: object) =>
    t.app.inject({ method: method as 'GET', url, headers: user.headers, ...(payload && { payload }) });

  // Every route of a pending or refused expert or officer: approval-roles.test.ts.
  it("says why in the expert's own language", async () => {
    const res = await send('GET', reviewApi.queue, pending);
    expect(res.statusCode).toBe(403);
    expect(errorOf(res).message).toBe(translate('sw', 'errors.vetting.pending'));
    const other = await send('GET', reviewApi.queue, refused);
    expect(errorOf(other).message).toBe(translate('en', 'errors.vetting.refused'));
  });

  it('lets a waiting expert read their own account, with what it waits for', async () => {
    const me = await send('GET', api.auth.me, refused);
    expect(me.statusCode).toBe(200);
    expect((me.json() as UserRecord).vetting).toMatchObject({ status: 'refused', reason: 'No certificate was sent' });
    expect((await send('GET', notificationsApi.list, pending)).statusCode).toBe(200);
  });

  it('makes a new expert account pending; sign-up cannot make an admin', { timeout: 120_000 }, async () => {
    const account = await activeAccount(t, 'expert');
    const session = await login(t, account.email);
    expect(session.user.vetting).toEqual({ status: 'pending', reason: null, decided_at: null });
    const res = await t.app.inject({
      method: 'GET',
      url: reviewApi.queue,
      headers: { authorization: `Bearer ${session.access}` },
    });
    expect(errorOf(res).code).toBe('EXPERT_PENDING');
    const asAdmin = await t.app.inject({ method: 'POST', url: '/api/auth/register/admin/', payload: {} });
    expect(asAdmin.statusCode).toBe(404);
  });

  it('lets only an admin list, approve and refuse applications', async () => {
    for (const user of [farmer, approved, pending, refused]) {
      for (const [method, url, body] of [
        ['GET', APPLICATIONS, undefined],
        ['POST', approve(pending.id), {}],
        ['POST', refuse(pending.id), { reason: 'Not an expert' }],
      ] as const) {
        const res = await send(method, url, user, body);
        expect(res.statusCode, `${method} ${url} as ${user.role}`).toBe(403);
        expect(errorOf(res).message).toBe(translate(user.id === pending.id ? 'sw' : 'en', 'errors.roles.admins'));
      }
    }
    const list = await send('GET', `${APPLICATIONS}?page_size=2`, admin);
    expect(list.statusCode).toBe(200);
    const page = list.json() as ApplicationPage;
    expect(page.count).toBeGreaterThanOrEqual(3);
    expect(page.results).toHaveLength(2);
    expect(page.next).toBe(2);
    expect(page.results[0]!.status).toBe('pending');
    const only = (await send('GET', `${APPLICATIONS}?status=refused`, admin)).json() as ApplicationPage;
    expect(only.results.map((a) => a.id)).toContain(refused.id);
    expect(only.results.every((a) => a.status === 'refused')).toBe(true);
  });

  it('approving tells the applicant in their language, in the app, by SMS and by email, and opens the expert routes', async () => {
    const applicant = await createUser(t, 'expert', { vetting: 'pending', language: 'lg' });
    expect((await send('GET', reviewApi.queue, applicant)).statusCode).toBe(403);

    const res = await send('POST', approve(applicant.id), admin);
    expect(res.statusCode, res.body).toBe(200);
    // With the expert's own facts, which auth keeps (expert_profiles).
    expect(res.json() as Application).toMatchObject({
      status: 'approved',
      decided_by: admin.username,
      expert: { areas_of_expertise: 'Maize rust', bio: 'Plant pathologist', experience_years: 8, institution: '' },
    });

    const notes = (await send('GET', notificationsApi.list, applicant)).json() as NotificationList;
    expect(notes.results[0]).toMatchObject({
      type: 'expert_approved',
      message: translate('lg', 'vetting.approved.message', { name: applicant.username }),
    });
    expect(lastSms(t, applicant.phone).text).toContain(translate('lg', 'vetting.approved.sms'));
    const mail = await t.smtp.lastMailTo(applicant.email);
    expect(mail.subject).toBe(translate('lg', 'vetting.approved.subject'));
    // The same access token now passes: the gate reads the database until the expert is approved.
    expect((await send('GET', reviewApi.queue, applicant)).statusCode).toBe(200);
    expect((await send('POST', approve(applicant.id), admin)).statusCode).toBe(409);
    expect((await send('POST', refuse(applicant.id), admin, { reason: 'Changed my mind' })).statusCode).toBe(409);
  });

  it('refusing needs a reason, which the applicant reads; a refused application can still be approved', async () => {
    const applicant = await createUser(t, 'expert', { vetting: 'pending', language: 'sw' });
    const empty = await send('POST', refuse(applicant.id), admin, { reason: ' ' });
    expect(empty.statusCode).toBe(400);
    const res = await send('POST', refuse(applicant.id), admin, { reason: 'Tuma cheti chako' });
    expect(res.statusCode, res.body).toBe(200);
    const me = (await send('GET', api.auth.me, applicant)).json() as UserRecord;
    expect(me.vetting).toMatchObject({ status: 'refused', reason: 'Tuma cheti chako' });
    const notes = (await send('GET', notificationsApi.list, applicant)).json() as NotificationList;
    expect(notes.results[0]).toMatchObject({
      type: 'expert_refused',
      message: translate('sw', 'vetting.refused.message', { name: applicant.username, reason: 'Tuma cheti chako' }),
    });
    expect((await send('GET', reviewApi.queue, applicant)).json()).toMatchObject({
      error: { code: 'EXPERT_REFUSED' },
    });
    // Approving a refused application is a deliberate second look: it says so.
    expect((await send('POST', approve(applicant.id), admin)).statusCode).toBe(409);
    expect((await send('POST', approve(applicant.id), admin, { from: 'refused' })).statusCode).toBe(200);
    expect((await send('GET', reviewApi.queue, applicant)).statusCode).toBe(200);
  });

  it('lets one of parallel refusals and approvals win; the others get 409 and the applicant one notice', async () => {
    const applicant = await createUser(t, 'expert', { vetting: 'pending' });
    const replies = await Promise.all(
      [0, 1, 2].flatMap(() => [
        send('POST', refuse(applicant.id), admin, { reason: 'No certificate' }),
        send('POST', approve(applicant.id), admin),
      ]),
    );
    expect(replies.map((r) => r.statusCode).sort()).toEqual([200, 409, 409, 409, 409, 409]);
    const notes = (await send('GET', notificationsApi.list, applicant)).json() as NotificationList;
    expect(notes.results.filter((n) => n.type.startsWith('expert_'))).toHaveLength(1);
  });

  it('lists only applicants who verified their sign-up, and never texts an unverified number', async () => {
    const unverified = await createUser(t, 'expert', { vetting: 'pending' });
    await t.deps.database.db.execute(
      sql`update users set activated_at = null, phone_verified_at = null where id = ${unverified.id}`,
    );
    const page = (await send('GET', `${APPLICATIONS}?page_size=100`, admin)).json() as ApplicationPage;
    expect(page.results.map((a) => a.id)).not.toContain(unverified.id);
    expect(page.results.map((a) => a.id)).toContain(pending.id);
    const withEmoji = `${'a'.repeat(150)} 🙂🙂🙂🙂🙂🙂`;
    expect((await send('POST', refuse(unverified.id), admin, { reason: withEmoji })).statusCode).toBe(200);
    expect(t.outbox.list().some((m) => m.channel === 'sms' && m.to === unverified.phone)).toBe(false);
    // A verified applicant's SMS is cut between whole characters, never inside an emoji.
    const verified = await createUser(t, 'expert', { vetting: 'pending' });
    expect((await send('POST', refuse(verified.id), admin, { reason: withEmoji })).statusCode).toBe(200);
    const text = lastSms(t, verified.phone).text;
    expect(text.length).toBeLessThanOrEqual(160);
    expect(text).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
  });

  it('answers 404 for a user who never applied', async () => {
    expect((await send('POST', approve(farmer.id), admin)).statusCode).toBe(404);
  });

  it('withdraws an approved extension officer: signed out at once, refused from then on, told why in their language', async () => {
    const officer = await createUser(t, 'officer', { districts: ['UG-208'], language: 'sw' });
    const week = (headers: Record<string, string>) =>
      t.app.inject({ method: 'GET', url: extensionApi.weekPath('UG-208'), headers });
    expect((await week(officer.headers)).statusCode).toBe(200); // the gate now remembers the approval
    // API clients read the account type in English; an officer's is never another role's.
    expect(((await send('GET', api.auth.me, officer)).json() as UserRecord).account.accountType).toBe(
      'Extension officer',
    );
    const withdraw = (who: TestUser, reason?: string) =>
      send('POST', vettingApi.of('officer').withdrawPath(officer.id), who, reason === undefined ? {} : { reason });

    expect((await withdraw(farmer, 'Left the office')).statusCode).toBe(403);
    expect((await withdraw(admin)).statusCode).toBe(400);
    const res = await withdraw(admin, 'Moved to another district office');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'refused', reason: 'Moved to another district office' });

    // The open session ends with it, and a new sign-in meets the refusal.
    expect((await week(officer.headers)).statusCode).toBe(401);
    const again = await login(t, officer.email, officer.password);
    const refusedNow = await week({ authorization: `Bearer ${again.access}` });
    expect(refusedNow.statusCode).toBe(403);
    expect(errorOf(refusedNow).code).toBe('OFFICER_REFUSED');
    const reason = 'Moved to another district office';
    const notes = (
      await t.app.inject({
        method: 'GET',
        url: notificationsApi.list,
        headers: { authorization: `Bearer ${again.access}` },
      })
    ).json() as NotificationList;
    expect(notes.results[0]).toMatchObject({
      type: 'officer_refused',
      message: translate('sw', 'officer.withdrawn.message', { name: officer.username, reason }),
    });
    expect(lastSms(t, officer.phone).text).toContain(translate('sw', 'officer.withdrawn.sms', { reason }));

    // Only an approved officer is withdrawn: twice, or a pending application, is a conflict.
    expect((await withdraw(admin, 'Again')).statusCode).toBe(409);
    const waiting = await createUser(t, 'officer', { districts: ['UG-208'], vetting: 'pending' });
    const pendingWithdrawn = await send('POST', vettingApi.of('officer').withdrawPath(waiting.id), admin, {
      reason: 'Not yet',
    });
    expect(pendingWithdrawn.statusCode).toBe(409);
  });

  it('serves every role through one family of paths: an unknown role is a clear 400, and an expert too can be withdrawn', async () => {
    const unknown = await send('GET', vettingApi.of('agronomist').applications, admin);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.body).toContain('role must be one of expert, officer');
    const expert = await createUser(t, 'expert');
    const res = await send('POST', vettingApi.of('expert').withdrawPath(expert.id), admin, {
      reason: 'Certificate lapsed',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ role: 'expert', status: 'refused', reason: 'Certificate lapsed' });
    expect((await send('GET', reviewApi.queue, expert)).statusCode).toBe(401);
  });
});
