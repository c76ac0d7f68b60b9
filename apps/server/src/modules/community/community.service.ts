import {
  COMMENT_RATE_LIMIT,
  communityApi,
  communityPath,
  communityPostPage,
  POST_RATE_LIMIT,
  type AllPostsQuery,
  type CommentAction,
  type CommunityPost,
  type CommunityPostPage,
  type ModerationLogPage,
  type ModerationStatus,
  type PageQuery,
  type PendingCount,
  type PostAction,
  type ResponseItem,
  type ResponseModerateReply,
  type ResponsePage,
  type Role,
  type RustClass,
} from '@kutu/contract';
import type { Clock } from '../../adapters/clock.ts';
import type { FileStorage } from '../../adapters/storage.ts';
import type { Database, Db } from '../../db/client.ts';
import { badRequest, conflict, notFound, tooMany } from '../../lib/errors.ts';
import { message } from '../../i18n/i18n.ts';
import type { DecodeLimiter } from '../../lib/decode-limiter.ts';
import { encodeJson, type JsonText } from '../../lib/json-text.ts';
import type { ListCaches } from '../../lib/list-cache.ts';
import type { ModuleDeps } from '../../deps.ts';
import { createTellAsker } from './answer-notice.ts';
import { photoForStorage, type UploadedImage } from '../../lib/image-upload.ts';
import { pageWindow, toPage } from '../../lib/pagination.ts';
import type { Notifier } from '../../lib/notifier.ts';
import { createCommunityRepo, type PostRow, type ResponseRow } from './community.repo.ts';
import { expertsWithoutUnread } from './experts.repo.ts';

export interface Viewer {
  userId: number;
  role: Role;
}

type Filters = { crop_type?: string; disease_type?: string; urgency_level?: string };
type Paged<Q> = Q & PageQuery;

import {
  commentNotice,
  commentRefusal,
  commentTransitions,
  postNotice,
  postRefusal,
  postTransitions,
} from './moderation-rules.ts';

export { commentTransitions, postTransitions };

const iso = (d: Date) => d.toISOString();
const minutesAgo = (now: Date, minutes: number) => new Date(now.getTime() - minutes * 60_000);

function toResponseItem(r: ResponseRow): ResponseItem {
  return {
    id: r.id,
    post_id: r.postId,
    kind: r.kind,
    content: r.content,
    status: r.status,
    is_approved: r.status === 'approved',
    is_flagged: r.status === 'flagged',
    created_at: iso(r.createdAt),
    username: r.username,
    reply_to: r.replyToId,
  };
}

/** Experts see every post; farmers see approved posts and their own. */
function canSeePost(viewer: Viewer, post: PostRow) {
  return viewer.role === 'expert' || post.status === 'approved' || post.authorId === viewer.userId;
}

/** Experts see every farmer comment; farmers see approved ones and their own. */
function canSeeComment(viewer: Viewer, r: ResponseRow) {
  return viewer.role === 'expert' || r.status === 'approved' || r.authorId === viewer.userId;
}

function toPost(row: PostRow, comments: ResponseRow[], viewer: Viewer): CommunityPost {
  const mine = comments.filter((c) => c.postId === row.id);
  return {
    id: row.id,
    title: row.title,
    content: row.content,
    image: row.imagePath ? communityPath(communityApi.postImage, { id: row.id }) : null,
    disease_type: row.diseaseType as CommunityPost['disease_type'],
    crop_type: row.cropType as CommunityPost['crop_type'],
    urgency_level: row.urgencyLevel as CommunityPost['urgency_level'],
    rust_detection: row.analysisId,
    analysis:
      row.analysisId !== null && row.analysisOutcome !== null
        ? {
            outcome: row.analysisOutcome,
            rust_class: row.analysisClass as RustClass | null,
            confidence: row.analysisConfidence ?? 0,
            unsure: row.analysisUnsure ?? false,
            has_heatmap: row.analysisHasHeatmap ?? false,
          }
        : null,
    is_flagged: row.status === 'flagged',
    is_approved: row.status === 'approved',
    status: row.status,
    moderation_reason: row.moderationReason,
    created_at: iso(row.createdAt),
    author: row.author,
    farmer_comments: mine
      .filter((c) => c.kind === 'farmer' && canSeeComment(viewer, c))
      .map((c) => ({
        id: c.id,
        content: c.content,
        created_at: iso(c.createdAt),
        username: c.username,
        farmer: c.username,
        status: c.status,
      })),
    expert_comments: mine
      .filter((c) => c.kind === 'expert')
      .map((c) => ({
        id: c.id,
        content: c.content,
        created_at: iso(c.createdAt),
        username: c.username,
        expert: c.username,
        reply_to: c.replyToId,
      })),
  };
}

/** A cached page of approved posts: the rows are the same for every viewer. */
type ApprovedPage = {
  page: { rows: (PostRow & { comments: ResponseRow[] })[]; total: number };
  /** Authors of comments not approved yet: only they and experts see those. */
  waitingAuthors: Set<number>;
  encoded: Partial<Record<'expert' | 'farmer', JsonText>>;
};

/** Post photos live in storage under this folder. */
export const POST_IMAGE_FOLDER = 'posts';

export function createCommunityService(deps: {
  db: Db;
  database: Database;
  clock: Clock;
  notifications: Notifier;
  storage: FileStorage;
  decodeLimiter: DecodeLimiter;
  lists: ListCaches;
  delivery: ModuleDeps['delivery'];
  config: ModuleDeps['config'];
}) {
  const repo = createCommunityRepo(deps.db, deps.database);
  const tellAsker = createTellAsker(deps);
  const approvedPages = deps.lists.of<ApprovedPage>('approved-posts');
  const approvedChanged = () => deps.lists.changed('approved-posts');

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

  async function visiblePost(viewer: Viewer, id: number): Promise<PostRow> {
    const row = await repo.findPost(id);
    // A post the caller may not see answers like one that does not exist, so ids leak nothing.
    if (!row || !canSeePost(viewer, row)) throw notFound('errors.community.postNotFound');
    return row;
  }

  /**
   * Tells experts that something waits for moderation: one unread notification each at most (the
   * menu's badge carries the count), so a busy board does not bury their other notifications.
   */
  async function tellExperts() {
    const experts = await expertsWithoutUnread(deps.db, 'moderation_pending');
    for (const id of experts) {
      await deps.notifications.notify(id, 'moderation_pending', message('notifications.moderationPending'), {});
    }
  }

  async function postView(viewer: Viewer, id: number): Promise<CommunityPost> {
    const row = await visiblePost(viewer, id);
    return toPost(row, await repo.responsesOfPosts([row.id]), viewer);
  }

  return {
    async createPost(
      viewer: Viewer,
      body: {
        title: string;
        content: string;
        crop_type: string;
        disease_type: string;
        urgency_level: string;
        rust_detection?: number | null;
      },
      image: UploadedImage | null = null,
    ): Promise<CommunityPost> {
      const now = deps.clock.now();
      const analysisId = body.rust_detection ?? null;
      if (analysisId !== null && (await repo.analysisOwner(analysisId)) !== viewer.userId) {
        throw badRequest('errors.community.linkedAnalysisNotFound', {
          rust_detection: 'errors.community.ownAnalysisField',
        });
      }
      // The photo is written first and removed again if the post is not saved (refused or failed), so a
      // refused post leaves no file behind; a crash in between leaves an orphan that the sweep removes.
      // Phone photos lose their metadata (GPS) here.
      let imagePath: string | null = null;
      if (image) {
        const photo = await deps.decodeLimiter.run(viewer.userId, () => photoForStorage(image));
        imagePath = await deps.storage.put(POST_IMAGE_FOLDER, photo.data, photo.ext);
      }
      let id: number | null = null;
      try {
        id = await repo.insertPostWithinLimit(
          {
            authorId: viewer.userId,
            title: body.title,
            content: body.content,
            cropType: body.crop_type,
            diseaseType: body.disease_type,
            urgencyLevel: body.urgency_level,
            analysisId,
            imagePath,
            status: 'pending',
            createdAt: now,
          },
          { max: POST_RATE_LIMIT.max, since: minutesAgo(now, POST_RATE_LIMIT.windowMinutes) },
        );
      } finally {
        if (id === null && imagePath) await deps.storage.remove(imagePath).catch(() => {});
      }
      if (id === null) {
        throw tooMany(
          message('errors.community.postRateLimit', {
            max: POST_RATE_LIMIT.max,
            minutes: POST_RATE_LIMIT.windowMinutes,
          }),
        );
      }
      await tellExperts();
      return postView(viewer, id);
    },

    async pendingCount(): Promise<PendingCount> {
      const { posts, comments } = await repo.countPending();
      return { posts, comments, total: posts + comments };
    },

    /** A post's photo, for whoever may see the post (anyone else gets 404, as for the post). */
    async postPhoto(viewer: Viewer, id: number) {
      const row = await visiblePost(viewer, id);
      if (!row.imagePath) throw notFound('errors.community.noPhoto');
      const { body, size } = await deps.storage.stream(row.imagePath).catch(() => {
        throw notFound('errors.community.photoGone');
      });
      return { data: body, size, contentType: row.imagePath.endsWith('.png') ? 'image/png' : 'image/jpeg' };
    },

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

    getPost: postView,

    async moderatePost(
      viewer: Viewer,
      id: number,
      body: { action: PostAction; reason?: string },
    ): Promise<CommunityPost> {
      const rule = postTransitions[body.action];
      const now = deps.clock.now();
      const reason = body.reason?.trim() || null;
      const result = await repo.transitionPost({
        id,
        from: rule.from,
        to: rule.to,
        actorId: viewer.userId,
        action: body.action,
        reason,
        now,
      });
      if (result.outcome === 'missing') throw notFound('errors.community.postNotFound');
      if (result.outcome === 'refused') throw conflict(postRefusal[body.action](result.current));
      await approvedChanged();
      const row = (await repo.findPost(id))!;
      await deps.notifications.notify(
        row.authorId,
        'post_moderated',
        message(postNotice[body.action], { title: row.title }),
        {
          post_id: id,
          action: body.action,
          status: rule.to,
          ...(reason && { reason }),
        },
      );
      return toPost(row, await repo.responsesOfPosts([id]), viewer);
    },

    async createComment(viewer: Viewer, postId: number, content: string): Promise<ResponseItem> {
      const post = await visiblePost(viewer, postId);
      if (viewer.role === 'farmer' && post.status !== 'approved') {
        throw conflict('errors.community.commentsOpenOnApproval');
      }
      const now = deps.clock.now();
      const isExpert = viewer.role === 'expert';
      const id = await repo.insertResponseWithinLimit(
        {
          postId,
          authorId: viewer.userId,
          kind: isExpert ? 'expert' : 'farmer',
          content,
          // Expert answers are visible at once; farmers' comments wait for an expert.
          status: isExpert ? 'approved' : 'pending',
          createdAt: now,
        },
        { max: COMMENT_RATE_LIMIT.max, since: minutesAgo(now, COMMENT_RATE_LIMIT.windowMinutes) },
      );
      if (id === null) {
        throw tooMany(
          message('errors.community.commentRateLimit', {
            max: COMMENT_RATE_LIMIT.max,
            minutes: COMMENT_RATE_LIMIT.windowMinutes,
          }),
        );
      }
      await approvedChanged();
      if (isExpert) await tellAsker(post, { id, authorId: viewer.userId });
      else await tellExperts();
      return toResponseItem((await repo.findResponse(id))!);
    },

    async moderateComment(
      viewer: Viewer,
      id: number,
      body: { response_id?: number; action: CommentAction; expert_comment?: string; reason?: string },
    ): Promise<ResponseModerateReply> {
      if (body.response_id !== undefined && body.response_id !== id) {
        throw badRequest('errors.community.responseMismatch', {
          response_id: 'errors.community.responseIdField',
        });
      }
      const target = await repo.findResponse(id);
      if (!target) throw notFound('errors.community.commentNotFound');
      if (target.kind === 'expert') throw conflict('errors.community.expertCommentsNotModerated');
      const rule = commentTransitions[body.action];
      const expertText = body.expert_comment?.trim() || null;
      const now = deps.clock.now();
      const result = await repo.transitionResponse(
        {
          id,
          from: rule.from,
          to: rule.to,
          actorId: viewer.userId,
          action: body.action,
          reason: body.reason?.trim() || null,
          now,
        },
        expertText ? { postId: target.postId, content: expertText } : null,
      );
      if (result.outcome === 'missing') throw notFound('errors.community.commentNotFound');
      if (result.outcome === 'refused') throw conflict(commentRefusal[body.action]);
      await approvedChanged();
      const post = await repo.findPost(target.postId);
      await deps.notifications.notify(
        target.authorId,
        'comment_moderated',
        message(commentNotice[body.action][expertText ? 'withReply' : 'alone'], {
          title: post?.title ?? message('notifications.aPost'),
        }),
        { post_id: target.postId, response_id: id, action: body.action, status: rule.to },
      );
      const updated = (await repo.findResponse(id))!;
      const expert = result.expertCommentId ? await repo.findResponse(result.expertCommentId) : null;
      if (post && expert) await tellAsker(post, expert);
      return { response: toResponseItem(updated), expert_comment: expert ? toResponseItem(expert) : null };
    },

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
export type CommunityService = ReturnType<typeof createCommunityService>;
