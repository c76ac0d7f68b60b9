import { eq, inArray } from 'drizzle-orm';
import type { Language } from '@kutu/contract';
import type { Db } from '../db/client.ts';
import { users } from '../db/schema/index.ts';

/** The stored language of accounts: what the server writes to them in, online or not. */
export function createLanguageRepo(db: Db) {
  return {
    async ofUser(userId: number): Promise<Language | undefined> {
      const [row] = await db.select({ language: users.language }).from(users).where(eq(users.id, userId));
      return row?.language;
    },
    async ofUsers(userIds: number[]): Promise<Map<number, Language>> {
      if (userIds.length === 0) return new Map();
      const rows = await db
        .select({ id: users.id, language: users.language })
        .from(users)
        .where(inArray(users.id, userIds));
      return new Map(rows.map((r) => [r.id, r.language]));
    },
  };
}
