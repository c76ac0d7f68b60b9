import { createHash } from 'node:crypto';
import { and, count, desc, eq, gte, inArray, sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { ModerationStatus } from '@kutu/contract';
import type { Database, Db, Tx } from '../../db/client.ts';
import { posts, responses, users } from '../../db/schema/index.ts';
import { analysisFacts } from '../analysis/analysis.service.ts';
import { createModerationRepo } from './moderation.repo.ts';

export interface PostFilters {
  statuses?: ModerationStatus[];
  authorId?: number;
  cropType?: string;
  diseaseType?: string;
  urgencyLevel?: string;
}

export interface Window {
  limit: number;
  offset: number;
}

const postColumns = {
  id: posts.id,
  authorId: posts.authorId,
  author: users.username,
  title: posts.title,
  content: posts.content,
  imagePath: posts.imagePath,
  cropType: posts.cropType,
  diseaseType: posts.diseaseType,
  urgencyLevel: posts.urgencyLevel,
  analysisId: posts.analysisId,
  status: posts.status,
  moderationReason: posts.moderationReason,
  createdAt: posts.createdAt,
  analysisOutcome: analysisFacts.outcome,
  analysisClass: analysisFacts.rustClass,
  analysisConfidence: analysisFacts.confidence,
  analysisUnsure: analysisFacts.unsure,
  analysisHasHeatmap: analysisFacts.hasHeatmap,
};
export type PostRow = {
  id: number;
  authorId: number;
  author: string;
  title: string;
  content: string;
  imagePath: string | null;
  cropType: string;
  diseaseType: string;
  urgencyLevel: string;
  analysisId: number | null;
  status: ModerationStatus;
  moderationReason: string | null;
  createdAt: Date;
  /** The linked analysis (left join: null without one). */
  analysisOutcome: 'diagnosis' | 'not_leaf' | null;
  analysisClass: string | null;
  analysisConfidence: number | null;
  analysisUnsure: boolean | null;
  analysisHasHeatmap: boolean | null;
};

/** A row of `pageOfPosts` as the database returns it (comments as JSON: their times are strings). */
type PageRow = {
  id: number;
  author_id: number;
  author: string;
  title: string;
  content: string;
  image_path: string | null;
  crop_type: string;
  disease_type: string;
  urgency_level: string;
  analysis_id: number | null;
  status: ModerationStatus;
  moderation_reason: string | null;
  created_at: Date | string;
  total: number;
  analysis_outcome: 'diagnosis' | 'not_leaf' | null;
  analysis_class: string | null;
  analysis_confidence: number | null;
  analysis_unsure: boolean | null;
  analysis_has_heatmap: boolean | null;
  comments: (Omit<ResponseRow, 'createdAt'> & { createdAt: string })[];
};

const dialect = new PgDialect();

const responseColumns = {
  id: responses.id,
  postId: responses.postId,
  authorId: responses.authorId,
  username: users.username,
  kind: responses.kind,
  replyToId: responses.replyToId,
  content: responses.content,
  status: responses.status,
  createdAt: responses.createdAt,
};
export type ResponseRow = {
  id: number;
  postId: number;
  authorId: number;
  username: string;
  kind: 'farmer' | 'expert';
  replyToId: number | null;
  content: string;
  status: ModerationStatus;
  createdAt: Date;
};

function postWhere(f: PostFilters): SQL | undefined {
  return and(
    f.statuses ? inArray(posts.status, f.statuses) : undefined,
    f.authorId !== undefined ? eq(posts.authorId, f.authorId) : undefined,
    f.cropType ? eq(posts.cropType, f.cropType) : undefined,
    f.diseaseType ? eq(posts.diseaseType, f.diseaseType) : undefined,
    f.urgencyLevel ? eq(posts.urgencyLevel, f.urgencyLevel) : undefined,
  );
}

/** Advisory-lock key space of community writes (other features use other numbers, e.g. 7001 for bookings). */
const COMMUNITY_WRITE_LOCK = 7_002;

/** At most `max` posts (or comments) per author since `since` (POST_RATE_LIMIT, COMMENT_RATE_LIMIT). */
interface WriteLimit {
  max: number;
  since: Date;
}

/**
 * Inserts a post or a comment unless its author already wrote `limit.max` of them since `limit.since`.
 * Count and insert run in one transaction under a per-author advisory lock (one lock for both kinds),
 * so concurrent writes cannot overshoot. Returns the new id, or null when the limit is reached.
 */
async function insertWithinLimit(
  db: Db,
  table: typeof posts | typeof responses,
  authorId: number,
  limit: WriteLimit,
  insert: (tx: Tx) => Promise<number>,
): Promise<number | null> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${COMMUNITY_WRITE_LOCK}, ${authorId})`);
    const [{ n }] = await tx
      .select({ n: count() })
      .from(table)
      .where(and(eq(table.authorId, authorId), gte(table.createdAt, limit.since)));
    return n >= limit.max ? null : insert(tx);
  });
}

export function createCommunityRepo(db: Db, database: Database) {
  return {
    /** Who owns an analysis (the analysis module's facts), to check a post links the author's own. */
    async analysisOwner(analysisId: number): Promise<number | null> {
      const [row] = await db
        .select({ userId: analysisFacts.userId })
        .from(analysisFacts)
        .where(eq(analysisFacts.id, analysisId))
        .limit(1);
      return row?.userId ?? null;
    },

    /** Inserts a post unless its author reached the limit (insertWithinLimit); null then. */
    insertPostWithinLimit(row: typeof posts.$inferInsert, limit: WriteLimit): Promise<number | null> {
      return insertWithinLimit(db, posts, row.authorId, limit, async (tx) => {
        const [created] = await tx.insert(posts).values(row).returning({ id: posts.id });
        return created.id;
      });
    },

    async findPost(id: number): Promise<PostRow | null> {
      const [row] = await db
        .select(postColumns)
        .from(posts)
        .innerJoin(users, eq(users.id, posts.authorId))
        .leftJoin(analysisFacts, eq(analysisFacts.id, posts.analysisId))
        .where(eq(posts.id, id))
        .limit(1);
      return row ?? null;
    },

    /**
     * A page of posts with their comments and the number of matching posts, in one query: each query is
     * a round trip whose cost (driver, socket, parse) outweighed the work of these small reads
     * (docs/decisions/0015). The count rides on the page as a window; comments come as one JSON array
     * per post, built only for the posts on the page.
     */
    async pageOfPosts(
      filters: PostFilters,
      { limit, offset }: Window,
    ): Promise<{ rows: (PostRow & { comments: ResponseRow[] })[]; total: number }> {
      const where = postWhere(filters) ?? sql`true`;
      const query = dialect.sqlToQuery(sql`
        with page as (
          select posts.id, posts.author_id, users.username as author, posts.title, posts.content,
                 posts.image_path, posts.crop_type, posts.disease_type, posts.urgency_level, posts.analysis_id,
                 posts.status, posts.moderation_reason, posts.created_at, cast(count(*) over () as int) as total,
                 ${analysisFacts.outcome} as analysis_outcome, ${analysisFacts.rustClass} as analysis_class,
                 ${analysisFacts.confidence} as analysis_confidence, ${analysisFacts.unsure} as analysis_unsure,
                 ${analysisFacts.hasHeatmap} as analysis_has_heatmap
          from posts join users on users.id = posts.author_id
          left join ${analysisFacts} on ${analysisFacts.id} = posts.analysis_id
          where ${where}
          order by posts.created_at desc, posts.id desc
          limit ${limit} offset ${offset}
        )
        select page.*, (
          select coalesce(json_agg(json_build_object(
                   'id', r.id, 'postId', r.post_id, 'authorId', r.author_id, 'username', ru.username,
                   'kind', r.kind, 'replyToId', r.reply_to_id, 'content', r.content, 'status', r.status,
                   'createdAt', r.created_at) order by r.created_at, r.id), '[]')
          from responses r join users ru on ru.id = r.author_id
          where r.post_id = page.id
        ) as comments
        from page
        order by page.created_at desc, page.id desc`);
      // One prepared statement per filter combination (the text differs by the filters present).
      const name = `posts_page_${createHash('sha256').update(query.sql).digest('hex').slice(0, 16)}`;
      const rows = (await database.execute(query.sql, query.params, name)).rows as PageRow[];
      // A page past the end has no row to carry the count.
      const total =
        rows[0]?.total ?? (offset > 0 ? (await db.select({ n: count() }).from(posts).where(where))[0].n : 0);
      return {
        total,
        rows: rows.map((r) => ({
          id: r.id,
          authorId: r.author_id,
          author: r.author,
          title: r.title,
          content: r.content,
          imagePath: r.image_path,
          cropType: r.crop_type,
          diseaseType: r.disease_type,
          urgencyLevel: r.urgency_level,
          analysisId: r.analysis_id,
          status: r.status,
          moderationReason: r.moderation_reason,
          createdAt: new Date(r.created_at),
          analysisOutcome: r.analysis_outcome,
          analysisClass: r.analysis_class,
          analysisConfidence: r.analysis_confidence,
          analysisUnsure: r.analysis_unsure,
          analysisHasHeatmap: r.analysis_has_heatmap,
          comments: r.comments.map((c) => ({ ...c, createdAt: new Date(c.createdAt) })),
        })),
      };
    },

    /** Comments of several posts at once (oldest first), for embedding in a page of posts. */
    async responsesOfPosts(postIds: number[]): Promise<ResponseRow[]> {
      if (postIds.length === 0) return [];
      return db
        .select(responseColumns)
        .from(responses)
        .innerJoin(users, eq(users.id, responses.authorId))
        .where(inArray(responses.postId, postIds))
        .orderBy(responses.createdAt, responses.id);
    },

    async findResponse(id: number): Promise<ResponseRow | null> {
      const [row] = await db
        .select(responseColumns)
        .from(responses)
        .innerJoin(users, eq(users.id, responses.authorId))
        .where(eq(responses.id, id))
        .limit(1);
      return row ?? null;
    },

    /** Inserts a comment unless its author reached the limit (insertWithinLimit); null then. */
    insertResponseWithinLimit(row: typeof responses.$inferInsert, limit: WriteLimit): Promise<number | null> {
      return insertWithinLimit(db, responses, row.authorId, limit, async (tx) => {
        const [created] = await tx.insert(responses).values(row).returning({ id: responses.id });
        return created.id;
      });
    },

    /** Farmer comments of a post for moderation, newest first. */
    async listFarmerResponses(
      postId: number,
      status: ModerationStatus | null,
      { limit, offset }: Window,
    ): Promise<{ rows: ResponseRow[]; total: number }> {
      const where = and(
        eq(responses.postId, postId),
        eq(responses.kind, 'farmer'),
        status ? eq(responses.status, status) : undefined,
      );
      const rows = await db
        .select(responseColumns)
        .from(responses)
        .innerJoin(users, eq(users.id, responses.authorId))
        .where(where)
        .orderBy(desc(responses.createdAt), desc(responses.id))
        .limit(limit)
        .offset(offset);
      const [{ n }] = await db.select({ n: count() }).from(responses).where(where);
      return { rows, total: n };
    },

    ...createModerationRepo(db),
  };
}
