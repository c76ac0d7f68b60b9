import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { delayAfterFailures } from '../../src/modules/auth/backoff.ts';
import { activeAccount, PASSWORD } from '../support/auth-flow.ts';
import { createTestApp, type TestContext } from '../support/app.ts';
import { errorOf } from '../support/errors.ts';
import { api } from '@kutu/contract';

/** L3: failed sign-ins slow strangers down step by step and never lock the owner's known device out. */
let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const WRONG = 'Wr0ng!Password';
const loginFrom = (email: string, password: string, cookie?: string) =>
  t.app.inject({
    method: 'POST',
    url: api.auth.login,
    payload: { email, password },
    headers: cookie ? { cookie } : {},
  });
/** The cookie the browser would send back after a successful sign-in. */
const deviceCookie = (res: { headers: Record<string, unknown> }) => String(res.headers['set-cookie']).split(';')[0];

/** Fails `n` times from an unknown device, waiting out each delay as a patient attacker would. */
async function failPatiently(email: string, n: number) {
  for (let i = 1; i <= n; i++) {
    expect((await loginFrom(email, WRONG)).statusCode).toBe(401);
    t.clock.advance(delayAfterFailures(i));
  }
}

describe('L3: back-off after failed sign-ins', () => {
  it('doubles the wait from the 5th failure, up to 5 minutes', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 12, 13, 14, 40].map(delayAfterFailures)).toEqual([
      0, 0, 0, 0, 1000, 2000, 4000, 128_000, 256_000, 300_000, 300_000,
    ]);
  });

  it('makes an unknown device wait, then lets the right password in: no lock-out', async () => {
    const a = await activeAccount(t);
    await failPatiently(a.email, 6);
    t.clock.advance(-delayAfterFailures(6));
    let res = await loginFrom(a.email, PASSWORD);
    expect(res.statusCode).toBe(429);
    expect(errorOf(res).message).toBe('Too many attempts. Please wait 2 seconds and try again.');
    t.clock.advance(2000);
    res = await loginFrom(a.email, PASSWORD);
    expect(res.statusCode, res.body).toBe(200);
  });

  it('lets the right password in at once from a device that signed in before', async () => {
    const a = await activeAccount(t);
    const first = await loginFrom(a.email, PASSWORD);
    const cookie = deviceCookie(first);
    expect(cookie).toMatch(/^kutu_device=\d+\.[0-9a-f-]{36}\.[\w-]+$/);
    expect(String(first.headers['set-cookie'])).toMatch(/HttpOnly; SameSite=Strict/);

    await failPatiently(a.email, 12);
    t.clock.advance(-delayAfterFailures(12));
    expect((await loginFrom(a.email, PASSWORD)).statusCode).toBe(429);
    expect((await loginFrom(a.email, PASSWORD, cookie)).statusCode).toBe(200);
    // A made-up or altered cookie is an unknown device.
    expect((await loginFrom(a.email, PASSWORD, `${cookie.slice(0, -2)}xx`)).statusCode).toBe(429);
  });

  it("does not accept another account's device cookie", async () => {
    const a = await activeAccount(t);
    const b = await activeAccount(t);
    const bCookie = deviceCookie(await loginFrom(b.email, PASSWORD));
    await failPatiently(a.email, 5);
    t.clock.advance(-delayAfterFailures(5));
    expect((await loginFrom(a.email, PASSWORD, bCookie)).statusCode).toBe(429);
  });

  it('slows down wrong passwords from a known device too, on their own count', async () => {
    const a = await activeAccount(t);
    const cookie = deviceCookie(await loginFrom(a.email, PASSWORD));
    for (let i = 0; i < 5; i++) expect((await loginFrom(a.email, WRONG, cookie)).statusCode).toBe(401);
    expect((await loginFrom(a.email, PASSWORD, cookie)).statusCode).toBe(429);
    // The account's own count for unknown devices was not touched.
    expect((await loginFrom(a.email, PASSWORD)).statusCode).toBe(200);
  });
});
