import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, privacyApi } from '@kutu/contract';
import { loadConfig } from '../../src/config.ts';
import { isLoopback } from '../../src/lib/this-machine.ts';
import { createTestApp, type TestContext } from '../support/app.ts';
import { post } from '../support/auth-flow.ts';
import { createUser } from '../support/users.ts';

/**
 * The development outbox shows every code and reset link sent lately. A server started as the README
 * said (HOST 0.0.0.0, NODE_ENV unset) served it to anyone who could reach it, even with a real SMS
 * gateway: asking for a reset by phone and reading the code there took over any account
 * (docs/decisions/0125).
 */
const outbox = (t: TestContext, remoteAddress?: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url: api.devOutbox, remoteAddress, headers });

/** A non-loopback IPv4 address of this machine, if it has one (a container's eth0). */
const outsideAddress = () =>
  Object.values(os.networkInterfaces())
    .flat()
    .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;

describe('the dev outbox with a real transport', () => {
  let smtp: TestContext;
  let gateway: TestContext;
  beforeAll(async () => {
    // The test app sends its mail to a real SMTP peer (SMTP_URL): a real transport.
    smtp = await createTestApp();
    gateway = await createTestApp({ env: { MAIL_TRANSPORT: 'log', SMS_GATEWAY_URL: 'http://127.0.0.1:9/sms' } });
  });
  afterAll(async () => {
    await smtp?.close();
    await gateway?.close();
  });

  it('is not served, even to this machine, when mail goes to a mail server', async () => {
    await smtp.deps.mailer.send({ to: 'someone@example.com', subject: 'Code', text: 'Your code is 1234' });
    const res = await outbox(smtp, '127.0.0.1');
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('1234');
  });

  it('is not served when SMS go to a gateway', async () => {
    expect((await outbox(gateway, '127.0.0.1')).statusCode).toBe(404);
  });

  it('says why it is off', () => {
    const dev = { NODE_ENV: 'development', DATA_DIR: os.tmpdir() };
    expect(loadConfig({ ...dev, SMTP_URL: 'smtp://127.0.0.1:25' }).devOutboxOff).toMatch(/SMTP_URL/);
    expect(loadConfig({ ...dev, SMS_GATEWAY_URL: 'https://api.africastalking.com/sms' }).devOutboxOff).toMatch(
      /SMS_GATEWAY_URL/,
    );
    expect(loadConfig(dev).devOutboxOff).toBeNull();
  });
});

describe('the dev outbox with both transports only logging', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp({ env: { MAIL_TRANSPORT: 'log', TRUST_PROXY: 'loopback' } });
    await t.deps.sms.send('+256700000111', 'Your password reset code is 4321');
  });
  afterAll(() => t.close());

  it('answers a client on this machine', async () => {
    for (const address of ['127.0.0.1', '127.0.0.53', '::1', '::ffff:127.0.0.1']) {
      const res = await outbox(t, address);
      expect(res.statusCode, address).toBe(200);
      expect(res.json().results[0]).toMatchObject({ to: '+256700000111', text: expect.stringContaining('4321') });
    }
  });

  it('answers anyone else 404, as a path that names no route', async () => {
    const noRoute = await t.app.inject({ method: 'GET', url: '/api/dev/nothing/', remoteAddress: '198.51.100.7' });
    for (const address of ['198.51.100.7', '10.0.0.2', '::ffff:10.0.0.2', 'fd00::2', '128.0.0.1']) {
      const res = await outbox(t, address);
      expect(res.statusCode, address).toBe(404);
      expect(res.body).not.toContain('4321');
      expect(res.json().error.code).toBe(noRoute.json().error.code);
    }
  });

  it('answers 404 to a request a proxy on this machine relayed, whatever address it claims', async () => {
    // TRUST_PROXY=loopback: request.ip would be the X-Forwarded-For address, 127.0.0.1 here.
    const relays: Record<string, string>[] = [
      { 'x-forwarded-for': '127.0.0.1' },
      { forwarded: 'for=127.0.0.1' },
      { 'x-real-ip': '127.0.0.1' },
      { via: '1.1 caddy' },
      { 'x-forwarded-host': 'kutu.example' },
    ];
    for (const headers of relays) {
      const res = await outbox(t, '127.0.0.1', headers);
      expect(res.statusCode, JSON.stringify(headers)).toBe(404);
    }
  });

  it('answers by the socket: 404 over the network, 200 over loopback', async () => {
    const outside = outsideAddress();
    await t.app.listen({ host: outside ? '0.0.0.0' : '127.0.0.1', port: 0 });
    try {
      const port = (t.app.server.address() as { port: number }).port;
      const local = await fetch(`http://127.0.0.1:${port}${api.devOutbox}`);
      expect(local.status).toBe(200);
      // A machine with no other interface: the same check as the request from another address above.
      const far = outside
        ? await fetch(`http://${outside}:${port}${api.devOutbox}`)
        : { status: (await outbox(t, '192.0.2.2')).statusCode };
      expect(far.status).toBe(404);
    } finally {
      await t.app.server.close();
    }
  });

  it("forgets an erased person's messages, by phone number and email", async () => {
    const farmer = await createUser(t, 'farmer');
    const other = await createUser(t, 'farmer');
    await t.deps.sms.send(farmer.phone, 'Your password reset code is 1111');
    await t.deps.mailer.send({ to: farmer.email.toUpperCase(), subject: 'Reset', text: 'https://x/reset#t=secret' });
    await t.deps.sms.send(other.phone, 'Your code is 2222');
    const erased = await post(t, privacyApi.deleteAccount, { password: farmer.password }, farmer.headers);
    expect(erased.statusCode, erased.body).toBe(200);
    const left = (await outbox(t, '127.0.0.1')).json().results as { to: string; text: string }[];
    expect(left.filter((m) => m.to === farmer.phone || m.to.toLowerCase() === farmer.email.toLowerCase())).toEqual([]);
    expect(left.some((m) => m.to === other.phone && m.text.includes('2222'))).toBe(true);
  });
});

describe('the address a server listens on', () => {
  it('is this machine only by default outside production', () => {
    expect(loadConfig({ DATA_DIR: os.tmpdir() }).host).toBe('127.0.0.1');
    expect(loadConfig({ NODE_ENV: 'test', DATA_DIR: os.tmpdir() }).host).toBe('127.0.0.1');
    expect(loadConfig({ HOST: '0.0.0.0', DATA_DIR: os.tmpdir() }).host).toBe('0.0.0.0');
  });

  it('tells loopback addresses apart', () => {
    expect(['127.0.0.1', '127.255.0.9', '::1', '::ffff:127.0.0.1', '::FFFF:127.1.2.3'].every(isLoopback)).toBe(true);
    expect(['10.0.0.1', '128.0.0.1', '::2', '::ffff:10.0.0.1', 'fe80::1', '', undefined].some(isLoopback)).toBe(false);
  });
});
