import { inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { installationSecrets } from '../../db/schema/index.ts';

export type SecretName = (typeof installationSecrets.$inferSelect)['name'];

/** The installation's stored secrets (docs/decisions/0097). */
export function createInstallationSecretsRepo(db: Db) {
  return {
    /**
     * Stores each offered value whose name has none yet, and returns the values that stand: the first
     * process to start wins, every other process (and every later start) reads what it stored.
     */
    async keepFirst(offered: Partial<Record<SecretName, string>>): Promise<Partial<Record<SecretName, string>>> {
      const names = Object.keys(offered) as SecretName[];
      if (!names.length) return {};
      await db
        .insert(installationSecrets)
        .values(names.map((name) => ({ name, value: offered[name]! })))
        .onConflictDoNothing();
      const rows = await db.select().from(installationSecrets).where(inArray(installationSecrets.name, names));
      return Object.fromEntries(rows.map((r) => [r.name, r.value]));
    },
  };
}
