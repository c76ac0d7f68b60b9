import type { Db } from '../../db/client.ts';
import { notifications } from '../../db/schema/index.ts';

export function createNotificationsRepo(db: Db) {
  return {
    async insert(row: { userId: number; type: string; message: string; data: Record<string, unknown> }) {
      const [created] = await db.insert(notifications).values(row).returning();
      return created;
    },
  };
}
