import {
  COMMENT_RATE_LIMIT,
  POST_RATE_LIMIT,
  type CommentAction,
  type CommunityPost,
  type PendingCount,
  type PostAction,
  type ResponseItem,
  type ResponseModerateReply,
} from '@kutu/contract';
import type { Clock } from '../../adapters/clock.ts';
import type { FileStorage } from '../../adapters/storage.ts';
import type { Database, Db } from '../../db/client.ts';
import { badRequest, conflict, notFound, tooMany } from '../../lib/errors.ts';
import { message } from '../../i18n/i18n.ts';
import type { DecodeLimiter } from '../../lib/decode-limiter.ts';
import type { ListCaches } from '../../lib/list-cache.ts';
import type { ModuleDeps } from '../../deps.ts';
import { createTellAsker } from './answer-notice.ts';
import { photoForStorage, type UploadedImage } from '../../lib/image-upload.ts';
import type { Notifier } from '../../lib/notifier.ts';
import { createCommunityRepo, type PostRow } from './community.repo.ts';
import { canSeePost, toPost, toResponseItem, type Viewer } from './community-views.ts';
import { expertsWithoutUnread } from './experts.repo.ts';
import { createPostLists } from './post-lists.ts';
import {
  commentNotice,
  commentRefusal,
  commentTransitions,
  postNotice,
  postRefusal,
  postTransitions,
} from './moderation-rules.ts';

export { commentTransitions, postTransitions };
/** Posts, answers and moderation as other modules' queries count them (the dashboard). */
export { moderationFacts, postFacts, responseFacts } from './facts.repo.ts';
/** Which upload keys a post refers to (the orphan photo sweep's `PhotoOwner`, through ports.ts). */
export { postPhotoKeys } from './facts.repo.ts';

const minutesAgo = (now: Date, minutes: number) => new Date(now.getTime() - minutes * 60_000);

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
  const approvedChanged = () => deps.lists.changed('approved-posts');

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
    ...createPostLists(deps, repo),

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
  };
}
export type CommunityService = ReturnType<typeof createCommunityService>;
