import { asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { advice } from '../../db/schema/index.ts';

export type AdviceRow = typeof advice.$inferSelect;

export function createAdviceRepo(db: Db) {
  return {
    /** Every entry in every language (a small table: at most topics × crops × languages rows). */
    async listAll(): Promise<AdviceRow[]> {
      return db.select().from(advice).orderBy(asc(advice.topic), asc(advice.crop), asc(advice.id));
    },

    async update(
      id: number,
      values: Pick<AdviceRow, 'headline' | 'steps' | 'more' | 'updatedBy' | 'updatedAt'>,
    ): Promise<AdviceRow | undefined> {
      const [updated] = await db.update(advice).set(values).where(eq(advice.id, id)).returning();
      return updated;
    },
  };
}
