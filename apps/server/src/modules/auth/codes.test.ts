import { describe, expect, it } from 'vitest';
import { type Message, render } from '../../i18n/i18n.ts';
import { codeProblem, dayProblem, newCode, resendProblem, wrongTryMessage } from './codes.ts';

const en = (m: Message | null) => m && render('en', m);

const now = new Date('2026-03-01T10:00:00Z');
const ago = (ms: number) => new Date(now.getTime() - ms);
const live = { attempts: 0, expiresAt: new Date(now.getTime() + 60_000), consumedAt: null, invalidated: false };

describe('one-time codes', () => {
  it('are four digits, leading zeros kept, and vary', () => {
    const codes = Array.from({ length: 2000 }, newCode);
    for (const c of codes) expect(c).toMatch(/^\d{4}$/);
    expect(new Set(codes).size).toBeGreaterThan(1500);
    expect(codes.some((c) => c.startsWith('0'))).toBe(true);
  });

  it('can be tried while live, not after expiry, use or five wrong tries', () => {
    expect(codeProblem(live, now)).toBeNull();
    expect(en(codeProblem(undefined, now))).toBe('There is no active code. Request a new code.');
    expect(en(codeProblem({ ...live, consumedAt: now }, now))).toBe('There is no active code. Request a new code.');
    expect(en(codeProblem({ ...live, expiresAt: now }, now))).toBe('This code has expired. Request a new code.');
    expect(en(codeProblem({ ...live, attempts: 5, invalidated: true }, now))).toBe(
      'Too many wrong codes. Request a new code.',
    );
  });

  it("count down the tries left after a wrong code: the code's or the day's, whichever are fewer", () => {
    const tried = (attempts: number, hoursAgo = 0) => ({
      attempts,
      consumedAt: null,
      createdAt: ago(hoursAgo * 3600_000),
    });
    expect(en(wrongTryMessage(1, [tried(1)], now))).toBe('Wrong code. You have 4 tries left.');
    expect(en(wrongTryMessage(4, [tried(4)], now))).toBe('Wrong code. You have 1 try left.');
    expect(en(wrongTryMessage(5, [tried(5)], now))).toBe('Too many wrong codes. Request a new code.');
    // Seven wrong tries on earlier codes today, and this one: two left, not four.
    expect(en(wrongTryMessage(1, [tried(5, 3), tried(2, 2), tried(1)], now))).toBe(
      'Wrong code. You have 2 tries left.',
    );
    // Ten today: none until the first of them is a day old.
    const day = [tried(5, 20), tried(4, 2), tried(1)];
    expect(en(wrongTryMessage(1, day, now))).toBe('Too many wrong codes today. Please try again in 4 hours.');
    expect(en(dayProblem(day, now))).toBe('Too many wrong codes today. Please try again in 4 hours.');
    expect(dayProblem([tried(5, 20), { ...tried(5, 2), consumedAt: now }], now)).toBeNull();
  });

  it('are resent at most once a minute and five times an hour', () => {
    expect(resendProblem([], now)).toBeNull();
    expect(en(resendProblem([ago(10_000)], now))).toBe('Please wait 50 seconds before asking for a new code.');
    expect(resendProblem([ago(61_000)], now)).toBeNull();
    const five = [50, 40, 30, 20, 2].map((m) => ago(m * 60_000));
    expect(en(resendProblem(five, now))).toBe('You have asked for too many codes. Please try again in 10 minutes.');
    expect(resendProblem(five.slice(1), now)).toBeNull();
    expect(resendProblem([ago(61 * 60_000), ...five.slice(1)], now)).toBeNull();
  });
});
