import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { ModerationStatus } from '@kutu/contract';
import type { Db } from '../../db/client.ts';
import { moderationAudit, posts, responses, users } from '../../db/schema/index.ts';

export interface Transition {
  id: number;
  /** States the action applies to; any other current state is refused. */
  from: readonly ModerationStatus[];
  to: ModerationStatus;
  actorId: number;
  action: string;
  reason: string | null;
  now: Date;
}
export type TransitionResult =
  | { outcome: 'missing' }
  | { outcome: 'refused'; current: ModerationStatus }
  | { outcome: 'done'; from: ModerationStatus };

/** Moderation: moving a post or comment between states with its audit entry, the log and what waits. */
export function createModerationRepo(db: Db) {
  return {
    /** Moves a post to another state and records it in the audit log, atomically. */
    async transitionPost(t: Transition): Promise<TransitionResult> {
      return db.transaction(async (tx) => {
        const [current] = await tx.select({ status: posts.status }).from(posts).where(eq(posts.id, t.id)).for('update');
        if (!current) return { outcome: 'missing' as const };
        if (!t.from.includes(current.status)) return { outcome: 'refused' as const, current: current.status };
        await tx
          .update(posts)
          .set({ status: t.to, moderatedBy: t.actorId, moderatedAt: t.now, moderationReason: t.reason })
          .where(eq(posts.id, t.id));
        await tx.insert(moderationAudit).values({
          actorId: t.actorId,
          action: t.action,
          targetType: 'post',
          targetId: t.id,
          fromStatus: current.status,
          toStatus: t.to,
          reason: t.reason,
          createdAt: t.now,
        });
        return { outcome: 'done' as const, from: current.status };
      });
    },

    /**
     * Moves a comment to another state, records it in the audit log and, when given, adds the expert's
     * comment on the same post, all in one transaction.
     */
    async transitionResponse(
      t: Transition,
      expertComment: { postId: number; content: string } | null,
    ): Promise<TransitionResult & { expertCommentId?: number }> {
      return db.transaction(async (tx) => {
        const [current] = await tx
          .select({ status: responses.status })
          .from(responses)
          .where(eq(responses.id, t.id))
          .for('update');
        if (!current) return { outcome: 'missing' as const };
        if (!t.from.includes(current.status)) return { outcome: 'refused' as const, current: current.status };
        await tx
          .update(responses)
          .set({ status: t.to, moderatedBy: t.actorId, moderatedAt: t.now })
          .where(eq(responses.id, t.id));
        await tx.insert(moderationAudit).values({
          actorId: t.actorId,
          action: t.action,
          targetType: 'response',
          targetId: t.id,
          fromStatus: current.status,
          toStatus: t.to,
          reason: t.reason,
          createdAt: t.now,
        });
        let expertCommentId: number | undefined;
        if (expertComment) {
          const [created] = await tx
            .insert(responses)
            .values({
              postId: expertComment.postId,
              authorId: t.actorId,
              kind: 'expert',
              replyToId: t.id,
              content: expertComment.content,
              status: 'approved',
              createdAt: t.now,
            })
            .returning({ id: responses.id });
          expertCommentId = created.id;
        }
        return { outcome: 'done' as const, from: current.status, expertCommentId };
      });
    },

    async listAudit(
      filter: { targetType?: 'post' | 'response'; targetId?: number },
      { limit, offset }: { limit: number; offset: number },
    ) {
      const where = and(
        filter.targetType ? eq(moderationAudit.targetType, filter.targetType) : undefined,
        filter.targetId !== undefined ? eq(moderationAudit.targetId, filter.targetId) : undefined,
      );
      const rows = await db
        .select({
          id: moderationAudit.id,
          actor: users.username,
          action: moderationAudit.action,
          targetType: moderationAudit.targetType,
          targetId: moderationAudit.targetId,
          fromStatus: moderationAudit.fromStatus,
          toStatus: moderationAudit.toStatus,
          reason: moderationAudit.reason,
          createdAt: moderationAudit.createdAt,
          postId: posts.id,
          postTitle: posts.title,
        })
        .from(moderationAudit)
        .innerJoin(users, eq(users.id, moderationAudit.actorId))
        .leftJoin(
          responses,
          and(eq(moderationAudit.targetType, 'response'), eq(responses.id, moderationAudit.targetId)),
        )
        .leftJoin(
          posts,
          eq(
            posts.id,
            sql`case when ${moderationAudit.targetType} = 'post' then ${moderationAudit.targetId} else ${responses.postId} end`,
          ),
        )
        .where(where)
        .orderBy(desc(moderationAudit.createdAt), desc(moderationAudit.id))
        .limit(limit)
        .offset(offset);
      const [{ n }] = await db.select({ n: count() }).from(moderationAudit).where(where);
      return { rows, total: n };
    },

    /** Posts and farmers' comments that wait for an expert. */
    async countPending(): Promise<{ posts: number; comments: number }> {
      const [[p], [c]] = await Promise.all([
        db.select({ n: count() }).from(posts).where(eq(posts.status, 'pending')),
        db
          .select({ n: count() })
          .from(responses)
          .where(and(eq(responses.status, 'pending'), eq(responses.kind, 'farmer'))),
      ]);
      return { posts: p?.n ?? 0, comments: c?.n ?? 0 };
    },
  };
}
