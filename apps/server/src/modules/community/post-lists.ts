import {
  communityPostPage,
  type AllPostsQuery,
  type CommunityPostPage,
  type ModerationLogPage,
  type ModerationStatus,
  type PageQuery,
  type ResponsePage,
} from '@kutu/contract';
import { notFound } from '../../lib/errors.ts';
import { encodeJson, type JsonText } from '../../lib/json-text.ts';
import type { ListCaches } from '../../lib/list-cache.ts';
import { pageWindow, toPage } from '../../lib/pagination.ts';
import type { createCommunityRepo, PostRow, ResponseRow } from './community.repo.ts';
import { iso, toPost, toResponseItem, type Viewer } from './community-views.ts';

type Filters = { crop_type?: string; disease_type?: string; urgency_level?: string };
type Paged<Q> = Q & PageQuery;

/** A cached page of approved posts: the rows are the same for every viewer. */
type ApprovedPage = {
  page: { rows: (PostRow & { comments: ResponseRow[] })[]; total: number };
  /** Authors of comments not approved yet: only they and experts see those. */
  waitingAuthors: Set<number>;
  encoded: Partial<Record<'expert' | 'farmer', JsonText>>;
};

/** The board's lists: approved posts (cached), a farmer's own, all for experts, and moderation's. */
export function createPostLists(deps: { lists: ListCaches }, repo: ReturnType<typeof createCommunityRepo>) {
  const approvedPages = deps.lists.of<ApprovedPage>('approved-posts');

  async function pageOfPosts(
    viewer: Viewer,
    filters: Parameters<typeof repo.pageOfPosts>[0],
    query: PageQuery,
  ): Promise<CommunityPostPage> {
    const { rows, total } = await repo.pageOfPosts(filters, pageWindow(query));
    return toPage(
      rows.map((r) => toPost(r, r.comments, viewer)),
      total,
      query,
    );
  }

  const filterOf = (q: Filters) => ({
    cropType: q.crop_type,
    diseaseType: q.disease_type,
    urgencyLevel: q.urgency_level,
  });

  return {
    /**
     * Approved posts, for everyone signed in. Pages are cached until a write changes them
     * (docs/decisions/0025) and encoded once for each audience that sees the same comments: experts
     * (all), and farmers with no comment of their own waiting on the page (approved ones only).
     */
    async listApproved(viewer: Viewer, q: Paged<Filters>): Promise<JsonText> {
      const filters = { ...filterOf(q), statuses: ['approved' as const] };
      const window = pageWindow(q);
      const cached = await approvedPages.get(JSON.stringify([filters, window]), async () => {
        const page = await repo.pageOfPosts(filters, window);
        const waiting = page.rows.flatMap((r) => r.comments.filter((c) => c.status !== 'approved'));
        return {
          value: { page, waitingAuthors: new Set(waiting.map((c) => c.authorId)), encoded: {} },
          // Rows and up to two encodings of them.
          bytes: 3 * JSON.stringify(page.rows).length,
        };
      });
      const encode = () =>
        encodeJson(
          communityPostPage,
          toPage(
            cached.page.rows.map((r) => toPost(r, r.comments, viewer)),
            cached.page.total,
            q,
          ),
        );
      const audience = viewer.role === 'expert' ? 'expert' : cached.waitingAuthors.has(viewer.userId) ? null : 'farmer';
      if (!audience) return encode();
      cached.encoded[audience] ??= encode();
      return cached.encoded[audience];
    },

    /** The caller's own posts in every state, so a farmer sees what awaits approval. */
    listMine: (viewer: Viewer, q: Paged<Filters>) =>
      pageOfPosts(viewer, { ...filterOf(q), authorId: viewer.userId }, q),

    /** Every post, for experts; optionally one state. */
    listAll: (viewer: Viewer, q: AllPostsQuery & PageQuery) =>
      pageOfPosts(viewer, { ...filterOf(q), statuses: q.status ? [q.status] : undefined }, q),

    async moderationQueue(postId: number, q: PageQuery & { status: ModerationStatus | 'all' }): Promise<ResponsePage> {
      if (!(await repo.findPost(postId))) throw notFound('errors.community.postNotFound');
      const { rows, total } = await repo.listFarmerResponses(
        postId,
        q.status === 'all' ? null : q.status,
        pageWindow(q),
      );
      return toPage(rows.map(toResponseItem), total, q);
    },

    async moderationLog(
      q: PageQuery & { target_type?: 'post' | 'response'; target_id?: number },
    ): Promise<ModerationLogPage> {
      const { rows, total } = await repo.listAudit({ targetType: q.target_type, targetId: q.target_id }, pageWindow(q));
      return toPage(
        rows.map((r) => ({
          id: r.id,
          actor: r.actor,
          action: r.action,
          target_type: r.targetType,
          target_id: r.targetId,
          from_status: r.fromStatus,
          to_status: r.toStatus,
          reason: r.reason,
          created_at: iso(r.createdAt),
          post_id: r.postId,
          post_title: r.postTitle,
        })),
        total,
        q,
      );
    },
  };
}
