import argon2 from 'argon2';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../src/db/schema/index.ts';
import { login } from '../support/auth-flow.ts';
import { hashSecret, needsRehash, verifySecret } from '../../src/modules/auth/passwords.ts';
import { createTestApp, type TestContext } from '../support/app.ts';
import { createUser } from '../support/users.ts';

/** M6: OWASP-minimum argon2id, old hashes still verify and are upgraded, hashing off the event loop. */
let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const CURRENT = /^\$argon2id\$v=19\$m=19456,p=1,t=2\$/;

describe('M6: password hashing', () => {
  it('hashes with argon2id, 19 MiB, 2 passes, 1 lane', async () => {
    const hash = await hashSecret('Gr0w!Smart2026');
    expect(hash).toMatch(CURRENT);
    expect(needsRehash(hash)).toBe(false);
  });

  it('verifies a hash made with other parameters and rehashes it at sign-in', async () => {
    // A hash from before M6: the argon2 package's defaults (64 MiB, 3 passes, 4 lanes).
    const user = await createUser(t, 'farmer');
    await t.deps.database.db
      .update(users)
      .set({ passwordHash: await argon2.hash(user.password, { type: argon2.argon2id }) })
      .where(eq(users.id, user.id));
    const stored = async () =>
      (await t.deps.database.db.select().from(users).where(eq(users.id, user.id)))[0].passwordHash!;
    const old = await stored();
    expect(old).toMatch(/^\$argon2id\$v=19\$m=65536,p=4,t=3\$/);
    expect(needsRehash(old)).toBe(true);
    await login(t, user.email, user.password);
    const upgraded = await stored();
    expect(upgraded).toMatch(CURRENT);
    expect(await verifySecret(upgraded, user.password)).toBe(true);
    await login(t, user.email, user.password);
    expect(await stored()).toBe(upgraded);
  });

  it('hashes on the thread pool: the event loop keeps turning while a hash is computed', async () => {
    let turns = 0;
    let done = false;
    const spin = () => {
      if (done) return;
      turns += 1;
      setImmediate(spin);
    };
    setImmediate(spin);
    await Promise.all([hashSecret('one'), hashSecret('two'), hashSecret('three')]);
    done = true;
    // A hash computed on the main thread would leave no room for a single turn until it finished.
    expect(turns).toBeGreaterThan(10);
  });
});
