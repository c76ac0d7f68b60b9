import { describe, expect, it } from 'vitest';
import { createLiveSessions, type SessionEnd } from './live-sessions.ts';

const a = { userId: 1, role: 'farmer' as const, sessionId: 'a' };
const b = { userId: 1, role: 'farmer' as const, sessionId: 'b' };
const c = { userId: 2, role: 'farmer' as const, sessionId: 'c' };

/** A session table in memory that counts how often it is asked. */
function setup() {
  const open = new Set(['a', 'b', 'c']);
  const asked: string[] = [];
  let time = 0;
  const sessions = createLiveSessions(
    async (s) => {
      asked.push(s.sessionId);
      return open.has(s.sessionId);
    },
    5_000,
    () => time,
  );
  return { open, asked, sessions, wait: (ms: number) => (time += ms) };
}

describe('live sessions', () => {
  it('asks the database once per session and TTL', async () => {
    const { asked, sessions, wait } = setup();
    expect(await sessions.isLive(a)).toBe(true);
    expect(await sessions.isLive(a)).toBe(true);
    expect(asked).toEqual(['a']);
    wait(5_000);
    expect(await sessions.isLive(a)).toBe(true);
    expect(asked).toEqual(['a', 'a']);
  });

  it('forgets an ended session at once, one session or all of a user', async () => {
    const { open, sessions } = setup();
    for (const s of [a, b, c]) await sessions.isLive(s);
    open.delete('a');
    sessions.ended({ sessionId: 'a' });
    expect(await sessions.isLive(a)).toBe(false);
    expect(await sessions.isLive(b)).toBe(true);
    open.delete('b');
    open.delete('c');
    sessions.ended({ userId: 1 });
    expect(await sessions.isLive(b)).toBe(false);
    // Another user's session stays cached until its TTL (the database was changed behind its back here).
    expect(await sessions.isLive(c)).toBe(true);
  });

  it('without `ended` (another process revoked it), the TTL bounds how long a revoked session passes', async () => {
    const { open, sessions, wait } = setup();
    await sessions.isLive(a);
    open.delete('a');
    wait(4_999);
    expect(await sessions.isLive(a)).toBe(true);
    wait(1);
    expect(await sessions.isLive(a)).toBe(false);
  });

  it('does not cache a "live" that was read before the session ended', async () => {
    const open = new Set(['a']);
    let release: () => void = () => {};
    const sessions = createLiveSessions(async (s) => {
      const answer = open.has(s.sessionId);
      await new Promise<void>((r) => {
        release = r;
      });
      return answer;
    });
    const pending = sessions.isLive(a);
    open.delete('a');
    sessions.ended({ sessionId: 'a' });
    release();
    expect(await pending).toBe(true);
    const next = sessions.isLive(a);
    release();
    expect(await next).toBe(false);
  });

  it('tells listeners what ended until they unsubscribe', () => {
    const { sessions } = setup();
    const heard: SessionEnd[] = [];
    const stop = sessions.onEnded((end) => heard.push(end));
    sessions.ended({ sessionId: 'a' });
    sessions.ended({ userId: 2 });
    stop();
    sessions.ended({ sessionId: 'b' });
    expect(heard).toEqual([{ sessionId: 'a' }, { userId: 2 }]);
  });
});
