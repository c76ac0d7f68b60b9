import { and, eq, isNotNull, not } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { users } from '../../db/schema/index.ts';
import { hasUnreadSql } from '../notifications/notifications.service.ts';
import { approvedSql } from '../vetting/applications.service.ts';

/**
 * Active experts whose application was approved (docs/decisions/0027: one waiting or refused is told
 * nothing) without an unread notification of this type, so each has at most one waiting.
 */
export async function expertsWithoutUnread(db: Db, type: string): Promise<number[]> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        eq(users.role, 'expert'),
        isNotNull(users.activatedAt),
        approvedSql('expert', users.id),
        not(hasUnreadSql(type, users.id)),
      ),
    );
  return rows.map((r) => r.id);
}
