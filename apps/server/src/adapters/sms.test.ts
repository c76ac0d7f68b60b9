import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AT_FAILURES, type SmsGateway, startSmsGateway } from '../../test/support/sms-gateway.ts';
import { createSms, SmsError } from './sms.ts';

/**
 * The SMS adapter against a stand-in that holds it to Africa's Talking's documented request (username,
 * to, message, from; apiKey and Accept headers) and answers as the provider does.
 */
describe("SMS through Africa's Talking", () => {
  let gateway: SmsGateway;
  const TO = '+256772000111';
  beforeAll(async () => {
    // Numbers ending in a failure code get that code for their recipient.
    gateway = await startSmsGateway({
      username: 'kutu-app',
      apiKey: 'atsk_0123456789',
      ignoreKeys: true,
      refuse: (to) => {
        const code = Number(to.slice(-3));
        return code in AT_FAILURES ? code : false;
      },
    });
  });
  afterAll(() => gateway.close());

  const sms = (over: Partial<Parameters<typeof createSms>[0]> = {}) =>
    createSms({
      gatewayUrl: gateway.url,
      apiKey: gateway.apiKey,
      username: gateway.username,
      senderId: 'KUTU',
      ...over,
    });
  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => {
        throw new Error('sent');
      },
      (err: unknown) => {
        expect(err).toBeInstanceOf(SmsError);
        return err as SmsError;
      },
    );

  it('sends the documented form and reads the message id of a sent recipient', async () => {
    const receipt = await sms().send(TO, 'Kutu: rust in Soroti this week.');
    expect(receipt.gatewayId).toMatch(/^ATXid_\d+$/);
    expect(gateway.posts.at(-1)).toMatchObject({
      username: 'kutu-app',
      to: TO,
      message: 'Kutu: rust in Soroti this week.',
      from: 'KUTU',
    });
    // `from` is optional: without a sender id the account's default sends it.
    await sms({ senderId: '' }).send(TO, 'x');
    expect(gateway.posts.at(-1)?.from).toBeNull();
  });

  it("is refused as the provider refuses a request without the account's username or key", async () => {
    const before = gateway.posts.length;
    const noUser = await failure(sms({ username: undefined }).send(TO, 'x'));
    expect(noUser.message).toBe("SMS gateway answered 400: Request is missing required form field 'username'");
    expect(noUser.permanent).toBe(true);
    const wrongUser = await failure(sms({ username: 'sandbox' }).send(TO, 'x'));
    expect(wrongUser.message).toBe('SMS gateway answered 401: The supplied authentication is invalid');
    expect(wrongUser.permanent).toBe(true);
    const noKey = await failure(sms({ apiKey: undefined }).send(TO, 'x'));
    expect(noKey.message).toMatch(/^SMS gateway answered 401/);
    expect(gateway.posts.length).toBe(before);
    expect(gateway.refused.slice(-3).map((r) => r.status)).toEqual([400, 401, 401]);
  });

  it('fails for good on the codes no retry changes, and leaves the others to a later try', async () => {
    const permanent: number[] = [];
    const retried: number[] = [];
    for (const code of Object.keys(AT_FAILURES).map(Number)) {
      const err = await failure(sms().send(`+256772000${code}`, 'x'));
      expect(err.message).toBe(`SMS gateway refused it: ${code} ${AT_FAILURES[code]}`);
      (err.permanent ? permanent : retried).push(code);
    }
    expect(permanent).toEqual([401, 402, 403, 404, 406]);
    expect(retried).toEqual([405, 407, 500, 501, 502]);
  });

  it('a gateway error is tried again, a refused request is not', async () => {
    const down = await startSmsGateway({ failFirst: 1, username: 'kutu-app', apiKey: 'k' });
    try {
      const err = await failure(sms({ gatewayUrl: down.url, apiKey: 'k' }).send(TO, 'x'));
      expect(err).toMatchObject({ message: 'SMS gateway answered 500: try again', permanent: false });
      expect((await sms({ gatewayUrl: down.url, apiKey: 'k' }).send(TO, 'x')).gatewayId).toMatch(/^ATXid_/);
    } finally {
      await down.close();
    }
  });
});

/**
 * A bulk send (docs/decisions/0130): one request, `to` comma-separated; each number's answer read by its
 * number, whatever the reply's order, and a number the reply leaves out not taken (tried again).
 */
describe("bulk SMS through Africa's Talking", () => {
  it('posts one request for all numbers and matches each answer to its number', async () => {
    const got: URLSearchParams[] = [];
    const server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (d) => (body += d));
      req.on('end', () => {
        const form = new URLSearchParams(body);
        got.push(form);
        const [a, b] = (form.get('to') ?? '').split(',');
        // Out of order; the third number is not named; `b` written without its plus.
        const Recipients = [
          { number: b!.slice(1), status: 'UserInBlacklist', statusCode: 406, messageId: 'None', cost: '0' },
          { number: a, status: 'Success', statusCode: 101, messageId: 'ATXid_a', cost: 'UGX 30.0000' },
        ];
        res.writeHead(201, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ SMSMessageData: { Message: 'Sent to 1/3 Total Cost: UGX 30.0000', Recipients } }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const sms = createSms({ gatewayUrl: `http://127.0.0.1:${port}/`, apiKey: 'k', username: 'u', senderId: '' });
      let posted = 0;
      const numbers = ['+256772000001', '+256772000002', '+256772000003'];
      const results = await sms.sendBulk!(numbers, 'Kutu: rust near you', { onPosted: () => posted++ });
      expect(got).toHaveLength(1);
      expect(got[0]!.get('to')).toBe(numbers.join(','));
      expect(got[0]!.get('message')).toBe('Kutu: rust near you');
      expect(posted).toBe(1);
      expect(results[0]).toEqual({ gatewayId: 'ATXid_a' });
      expect(results[1]!.error).toMatchObject({
        message: 'SMS gateway refused it: 406 UserInBlacklist',
        permanent: true,
      });
      expect(results[2]!.error).toMatchObject({ permanent: false });
      expect(results[2]!.error!.message).toMatch(/^SMS gateway sent nothing to this number/);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
