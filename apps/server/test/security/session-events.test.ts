import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ClusterEvent, createMemoryCoordinator } from '../../src/adapters/coordinator.ts';
import { activeAccount, login, post } from '../support/auth-flow.ts';
import { createTestApp, type TestContext } from '../support/app.ts';
import { changePassword } from '../support/security.ts';
import { api } from '@kutu/contract';

/**
 * Per-process caches of session state (docs/decisions/0021) hear of every revocation through the
 * coordinator's `session-revoked` event: one session on sign-out and refresh-token reuse, all of a
 * user's on a password change.
 */
describe('session-revoked events', () => {
  let t: TestContext;
  const heard: Extract<ClusterEvent, { type: 'session-revoked' }>[] = [];
  beforeAll(async () => {
    const coordinator = createMemoryCoordinator();
    coordinator.on('session-revoked', (e) => heard.push(e));
    t = await createTestApp({ coordinator });
  });
  afterAll(() => t.close());

  const userIdOf = (s: { user: Record<string, unknown> }) => Number(s.user.id);

  it('sign-out ends one session; a replayed refresh token its family; a password change all of them', async () => {
    const a = await activeAccount(t);
    const s = await login(t, a.email);
    const userId = userIdOf(s);
    expect(heard).toEqual([]);

    expect((await post(t, api.auth.logout, { refresh: s.refresh })).statusCode).toBe(200);
    expect(heard).toHaveLength(1);
    expect(heard[0]).toMatchObject({ type: 'session-revoked', userId });
    expect(heard[0].sessionId).toEqual(expect.any(String));

    const second = await login(t, a.email);
    const rotated = await post(t, api.auth.refresh, { refresh: second.refresh });
    expect(rotated.statusCode).toBe(200);
    expect(heard).toHaveLength(1); // a normal rotation ends nothing
    expect((await post(t, api.auth.refresh, { refresh: second.refresh })).statusCode).toBe(401);
    expect(heard).toHaveLength(2);
    expect(heard[1]).toMatchObject({ userId, sessionId: expect.any(String) });
    expect(heard[1].sessionId).not.toBe(heard[0].sessionId);

    const third = await login(t, a.email);
    expect((await changePassword(t, third.access, a.password)).statusCode).toBe(200);
    expect(heard).toHaveLength(3);
    expect(heard[2]).toEqual({ type: 'session-revoked', userId, sessionId: undefined });
  });
});
