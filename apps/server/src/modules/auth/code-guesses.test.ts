import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { api } from '@kutu/contract';
import { otpCodes, users } from '../../db/schema/index.ts';
import { createTestApp, type TestContext } from '../../../test/support/app.ts';
import { codeIn, farmerBody, lastSms, post } from '../../../test/support/auth-flow.ts';
import { errorOf } from '../../../test/support/errors.ts';

/**
 * Guessing a 4-digit code: every try is counted before it is judged, so 40 guesses sent at once are
 * judged 5 at most; a new code does not give a guesser a fresh supply of tries for the day.
 */
describe('one-time codes under a burst of guesses', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const tries = async (userId: number, purpose: 'PHONE_ACTIVATION' | 'PASSWORD_RESET') =>
    (
      await t.deps.database.db
        .select({ attempts: otpCodes.attempts })
        .from(otpCodes)
        .where(and(eq(otpCodes.userId, userId), eq(otpCodes.purpose, purpose)))
    ).reduce((sum, r) => sum + r.attempts, 0);
  const judgedWrong = (replies: { body: string }[]) =>
    replies.filter((r) => /Wrong code\. You have \d+ tr/.test(r.body)).length;
  const wrongFor = (code: string) =>
    Array.from({ length: 40 }, (_, i) => String((Number(code) + 1 + i) % 10_000).padStart(4, '0'));

  it('judges at most 5 of 40 activation codes sent at once, and the right one after them is refused', async () => {
    const body = farmerBody({ email: undefined });
    const res = await post(t, api.auth.registerFarmer, body);
    expect(res.statusCode, res.body).toBe(201);
    const token = res.json().token as string;
    const code = codeIn(lastSms(t, body.phone_number).text);
    const [user] = await t.deps.database.db.select().from(users).where(eq(users.phone, body.phone_number));

    const replies = await Promise.all(wrongFor(code).map((otp) => post(t, api.auth.activate, { otp, token })));
    expect(replies.every((r) => r.statusCode === 400)).toBe(true);
    expect(await tries(user.id, 'PHONE_ACTIVATION')).toBeLessThanOrEqual(5);
    expect(judgedWrong(replies)).toBeLessThanOrEqual(4);
    const right = await post(t, api.auth.activate, { otp: code, token });
    expect(errorOf(right).message).toBe('Too many wrong codes. Request a new code.');
  });

  it('judges at most 5 of 40 password-reset codes sent at once, and a new code every minute does not start the day again', async () => {
    const body = farmerBody({ email: undefined });
    expect((await post(t, api.auth.registerFarmer, body)).statusCode).toBe(201);
    const phone = body.phone_number as string;
    const [user] = await t.deps.database.db.select().from(users).where(eq(users.phone, phone));
    await t.deps.database.db.update(users).set({ activatedAt: new Date() }).where(eq(users.id, user.id));
    const reset = (code: string) =>
      post(t, api.auth.resetPasswordByCode, {
        phone,
        code,
        new_password: 'Fr3sh!Password',
        confirm_password: 'Fr3sh!Password',
      });
    const newCode = async () => {
      const before = t.outbox.list().length;
      t.clock.advance(61_000);
      expect((await post(t, api.auth.forgotPassword, { phone })).statusCode).toBe(200);
      // The code is hashed and sent after the reply (the same reply for any number): slow under load.
      await expect.poll(() => t.outbox.list().length, { timeout: 20_000 }).toBeGreaterThan(before);
      return codeIn(lastSms(t, phone).text);
    };

    const first = await newCode();
    const replies = await Promise.all(wrongFor(first).map(reset));
    expect(await tries(user.id, 'PASSWORD_RESET')).toBeLessThanOrEqual(5);
    expect(judgedWrong(replies)).toBeLessThanOrEqual(4);

    // One more code: five more tries, then the day's tries are used up, whatever the next code.
    const second = await newCode();
    for (const guess of wrongFor(second).slice(0, 5)) expect((await reset(guess)).statusCode).toBe(400);
    const third = await newCode();
    const refused = await reset(third);
    expect(refused.statusCode).toBe(400);
    expect(errorOf(refused).message).toMatch(/^Too many wrong codes today\. Please try again in \d+ hours?\.$/);
    expect(await tries(user.id, 'PASSWORD_RESET')).toBeLessThanOrEqual(10);
    // A day later the tries are back.
    t.clock.advance(24 * 3600_000);
    const fourth = await newCode();
    expect((await reset(fourth)).statusCode).toBe(200);
  });
});
