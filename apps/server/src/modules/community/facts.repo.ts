import { inArray } from 'drizzle-orm';
import { QueryBuilder } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.ts';
import { moderationAudit, posts, responses } from '../../db/schema/index.ts';

/**
 * Posts, their answers and the moderators' actions as another module's query counts them (the
 * dashboard), read only: subqueries PostgreSQL folds into the tables' own plans, so this module alone
 * decides their shape.
 */
export const postFacts = new QueryBuilder()
  .select({ id: posts.id, authorId: posts.authorId, diseaseType: posts.diseaseType })
  .from(posts)
  .as('post_facts');

export const responseFacts = new QueryBuilder()
  .select({ postId: responses.postId, kind: responses.kind })
  .from(responses)
  .as('response_facts');

export const moderationFacts = new QueryBuilder()
  .select({
    actorId: moderationAudit.actorId,
    targetType: moderationAudit.targetType,
    targetId: moderationAudit.targetId,
  })
  .from(moderationAudit)
  .as('moderation_facts');

/** Which of these upload keys a post refers to (the orphan photo sweep's). */
export async function postPhotoKeys(db: Db, keys: string[]): Promise<string[]> {
  return (await db.select({ key: posts.imagePath }).from(posts).where(inArray(posts.imagePath, keys))).map(
    (r) => r.key ?? '',
  );
}
