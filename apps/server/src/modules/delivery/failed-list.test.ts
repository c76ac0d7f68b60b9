import { deliveryApi, type FailedMessage, phoneApi } from '@kutu/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveries } from '../../db/schema/index.ts';
import { smsMessage } from '../../i18n/sms-texts.ts';
import { createTestApp, type TestContext, testDelivery } from '../../../test/support/app.ts';
import { startSmsGateway, type SmsGateway, smsThrough } from '../../../test/support/sms-gateway.ts';
import { createUser, type TestUser } from '../../../test/support/users.ts';
import { failureKind } from './failure-kind.ts';

const SECRET = 'report-secret-for-the-failed-list';
const KEY = 'gateway-secret-for-the-failed-list';

/**
 * The administrators' failed messages: each as the person was sent it (their language, the parts the
 * gateway got), whatever the administrator's language, and why it failed as a kind to say in plain words.
 */
describe('failed messages as they were sent', () => {
  let t: TestContext;
  let gateway: SmsGateway;
  let admin: TestUser;
  beforeAll(async () => {
    // Numbers ending 402 are refused for the sender id (Kutu's account), 406 for a blacklist.
    gateway = await startSmsGateway({ refuse: (to) => (to.endsWith('402') ? 402 : to.endsWith('406') ? 406 : false) });
    t = await createTestApp({
      sms: smsThrough(gateway),
      env: { SMS_REPORT_SECRET: SECRET, AT_CALLBACK_SECRET: KEY },
    });
    admin = await createUser(t, 'admin', { language: 'en' });
  });
  afterAll(async () => {
    await t.close();
    await gateway.close();
  });

  const failedList = async (who: TestUser) => {
    const res = await t.app.inject({ method: 'GET', url: `${deliveryApi.failed}?page_size=50`, headers: who.headers });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().results as FailedMessage[];
  };
  const reason = 'Ekifaananyi kya satifikeeti yo tekisomeka, tusaba oweereze ekirala ekirabika obulungi. '.repeat(3);

  it('shows a Luganda farmer’s three-part SMS exactly as the gateway got it, to an English and a Kiswahili administrator', async () => {
    const farmer = await createUser(t, 'farmer', { language: 'lg' });
    await testDelivery(t).tell({
      to: farmer.id,
      key: 'refused-lg',
      kind: 'service',
      sms: smsMessage('vetting.refused.sms', { reason }),
    });
    const [row] = await t.deps.database.db
      .select()
      .from(deliveries)
      .where(eq(deliveries.key, `refused-lg|${farmer.id}|sms`));
    expect(row).toMatchObject({ state: 'sent', partsSent: 2 });
    const posted = gateway.posts.filter((p) => p.to === farmer.phone).map((p) => p.message);
    expect(posted).toHaveLength(3);
    // The network's report: it never reached the phone, for the number's blacklist.
    const report = await t.app.inject({
      method: 'POST',
      url: `${deliveryApi.reports}?secret=${SECRET}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        id: row!.gatewayId!,
        status: 'Failed',
        failureReason: 'UserInBlacklist',
      }).toString(),
    });
    expect(report.statusCode, report.body).toBe(204);

    const listed = (await failedList(admin)).find((m) => m.id === row!.id);
    expect(listed).toMatchObject({
      language: 'lg',
      reason_kind: 'number_blocked',
      reason: 'UserInBlacklist',
      report: 'Failed',
    });
    expect(listed!.text).toBe(posted.join('\n'));
    expect(listed!.text).toMatch(/^Kutu: .*\(1\/3\)\n.*\(2\/3\)\n.*\(3\/3\)$/s);
    const swahiliAdmin = await createUser(t, 'admin', { language: 'sw' });
    expect((await failedList(swahiliAdmin)).find((m) => m.id === row!.id)?.text).toBe(listed!.text);
  });

  it('names why in kinds: a refused sender id is Kutu’s account, a blacklist the person’s line', async () => {
    const account = await createUser(t, 'farmer', { phone: '+256700000402' });
    const blocked = await createUser(t, 'farmer', { phone: '+256700000406' });
    for (const farmer of [account, blocked]) {
      await testDelivery(t).tell({
        to: farmer.id,
        key: `kinds-${farmer.id}`,
        kind: 'service',
        sms: smsMessage('smsIn.help', { code: '*384*1#' }),
      });
    }
    const list = await failedList(admin);
    const of = (user: TestUser) => list.find((m) => m.to.id === user.id);
    expect(of(account)).toMatchObject({
      reason_kind: 'gateway_account',
      reason: 'SMS gateway refused it: 402 InvalidSenderId',
    });
    expect(of(blocked)).toMatchObject({
      reason_kind: 'number_blocked',
      reason: 'SMS gateway refused it: 406 UserInBlacklist',
    });
  });

  it('lists the reply to a number without an account that could not be sent, named by its number, and sends it again', async () => {
    const number = '+256772555402';
    const sms = await t.app.inject({
      method: 'POST',
      url: `${phoneApi.sms}?key=${KEY}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ from: number, to: '12345', text: 'MSAADA', id: 'ATXid_in_402' }).toString(),
    });
    expect(sms.statusCode, sms.body).toBe(200);
    const listed = (await failedList(admin)).find((m) => m.to.address === number);
    expect(listed).toMatchObject({
      to: { id: null, username: number, address: number },
      channel: 'sms',
      language: 'sw',
      reason_kind: 'gateway_account',
    });
    expect(listed!.text).toMatch(/^Kutu: namba hii haina akaunti ya Kutu/);
    const again = await t.app.inject({
      method: 'POST',
      url: deliveryApi.resendPath(listed!.id),
      headers: admin.headers,
    });
    expect(again.statusCode, again.body).toBe(204);
    expect(gateway.posts.filter((p) => p.to === number)).toHaveLength(2);
  });

  it('reads a kind from every error the outbox records', () => {
    const sms = (error: string, report: string | null = null) => failureKind({ channel: 'sms', error, report });
    expect(sms('SMS gateway refused it: 403 InvalidPhoneNumber')).toBe('number_invalid');
    expect(sms('SMS gateway refused it: 404 UnsupportedNumberType')).toBe('number_invalid');
    expect(sms('SMS gateway refused it: 401 RiskHold')).toBe('gateway_account');
    expect(sms('SMS gateway refused it: 502 RejectedByGateway')).toBe('unreachable');
    expect(sms('SMS gateway answered 401: The supplied authentication is invalid')).toBe('gateway_account');
    expect(sms('SMS gateway answered 503')).toBe('unreachable');
    expect(sms('The operation was aborted due to timeout')).toBe('unreachable');
    expect(sms('fetch failed')).toBe('unreachable');
    expect(sms('AbsentSubscriber', 'Failed')).toBe('not_delivered');
    expect(sms('UserDoesNotExist', 'Rejected')).toBe('number_invalid');
    expect(sms('InsufficientCredit', 'Failed')).toBe('gateway_account');
    const mail = (error: string) => failureKind({ channel: 'email', error, report: null });
    expect(mail("Can't send mail - all recipients were rejected: 550 5.1.1 No such user")).toBe('email_refused');
    expect(mail('Invalid login: 535 5.7.8 Authentication failed')).toBe('gateway_account');
    expect(mail('Greeting never received')).toBe('other');
    expect(mail('Connection timeout')).toBe('unreachable');
  });
});
