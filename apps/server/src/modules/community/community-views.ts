import {
  communityApi,
  communityPath,
  type CommunityPost,
  type ResponseItem,
  type Role,
  type RustClass,
} from '@kutu/contract';
import type { PostRow, ResponseRow } from './community.repo.ts';

export interface Viewer {
  userId: number;
  role: Role;
}

export const iso = (d: Date) => d.toISOString();

export function toResponseItem(r: ResponseRow): ResponseItem {
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
export function canSeePost(viewer: Viewer, post: PostRow) {
  return viewer.role === 'expert' || post.status === 'approved' || post.authorId === viewer.userId;
}

/** Experts see every farmer comment; farmers see approved ones and their own. */
export function canSeeComment(viewer: Viewer, r: ResponseRow) {
  return viewer.role === 'expert' || r.status === 'approved' || r.authorId === viewer.userId;
}

export function toPost(row: PostRow, comments: ResponseRow[], viewer: Viewer): CommunityPost {
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
