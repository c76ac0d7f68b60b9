import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/support/app.ts';
import { loadConfig } from '../../config.ts';
import { withInstallationSecrets } from './installation-secrets.service.ts';

describe('the installation keeps its own signing secrets', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('gives every process of one installation the same secrets, whichever starts first', async () => {
    // Three processes starting at once, each with its own random offer (as a server, a worker, a web process).
    const started = await Promise.all([1, 2, 3].map(() => withInstallationSecrets(loadConfig({}), t.deps.database.db)));
    const [first] = started;
    for (const c of started)
      expect(c.jwt).toMatchObject({ accessSecret: first!.jwt.accessSecret, refreshSecret: first!.jwt.refreshSecret });
    expect(first!.jwt.accessSecret).not.toBe(first!.jwt.refreshSecret);
    const later = await withInstallationSecrets(loadConfig({}), t.deps.database.db);
    expect(later.jwt.accessSecret).toBe(first!.jwt.accessSecret);
  });

  it('leaves a secret set in the environment alone', async () => {
    const stored = await withInstallationSecrets(loadConfig({}), t.deps.database.db);
    const set = await withInstallationSecrets(loadConfig({ JWT_ACCESS_SECRET: 'a'.repeat(40) }), t.deps.database.db);
    expect(set.jwt.accessSecret).toBe('a'.repeat(40));
    expect(set.jwt.refreshSecret).toBe(stored.jwt.refreshSecret);
  });
});
