import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '@kutu/contract';
import { createSms } from '../../adapters/sms.ts';
import { createTestApp, type TestContext } from '../../../test/support/app.ts';
import { codeIn, farmerBody, post } from '../../../test/support/auth-flow.ts';
import { startSmsGateway, type SmsGateway } from '../../../test/support/sms-gateway.ts';

/** The gateway answers long after the adapter stops waiting, but sends every message it got (Africa's Talking). */
const GATEWAY_MS = 600;
const TIMEOUT_MS = 150;

describe('sign-up with an SMS gateway that answers after the timeout', () => {
  let t: TestContext;
  let gateway: SmsGateway;
  beforeAll(async () => {
    gateway = await startSmsGateway({ delayMs: GATEWAY_MS, ignoreKeys: true });
    const sms = createSms({
      gatewayUrl: gateway.url,
      apiKey: gateway.apiKey,
      username: gateway.username,
      senderId: 'KUTU',
      timeoutMs: TIMEOUT_MS,
    });
    t = await createTestApp({ sms });
  });
  afterAll(async () => {
    await t.close();
    await gateway.close();
  });

  /** What the gateway got for `phone`, once `n` posts have arrived. */
  async function postsTo(phone: string, n: number) {
    const deadline = Date.now() + 5000;
    while (gateway.posts.filter((p) => p.to === phone).length < n && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
    }
    return gateway.posts.filter((p) => p.to === phone);
  }

  it('signs the farmer up, and the code the gateway sent activates the account; nothing is sent twice', async () => {
    const body = farmerBody({ email: undefined });
    const res = await post(t, api.auth.registerFarmer, body);
    expect(res.statusCode, res.body).toBe(201);
    const token = res.json().token as string;

    const [sent] = await postsTo(body.phone_number, 1);
    const activated = await post(t, api.auth.activate, { otp: codeIn(sent!.message), token });
    expect(activated.statusCode, activated.body).toBe(200);
    // Let any retry of the unanswered send come and go: there is none.
    await new Promise((r) => setTimeout(r, GATEWAY_MS * 2));
    expect(gateway.posts.filter((p) => p.to === body.phone_number)).toHaveLength(1);
  });

  it('answers a resend at once with a new code that works, sent once', async () => {
    const body = farmerBody({ email: undefined });
    const res = await post(t, api.auth.registerFarmer, body);
    expect(res.statusCode, res.body).toBe(201);
    const token = res.json().token as string;
    await postsTo(body.phone_number, 1);
    t.clock.advance(61_000);
    const resent = await post(t, api.auth.resendOtp, { actionType: 'PHONE_ACTIVATION', token });
    expect(resent.statusCode, resent.body).toBe(200);
    const posts = await postsTo(body.phone_number, 2);
    expect(posts).toHaveLength(2);
    const activated = await post(t, api.auth.activate, { otp: codeIn(posts[1]!.message), token });
    expect(activated.statusCode, activated.body).toBe(200);
  });
});
