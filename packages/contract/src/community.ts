import { z } from 'zod';
import {
  cropTypes,
  diseaseTypes,
  rustClasses,
  urgencyLevels,
  POST_TITLE_MIN,
  POST_TITLE_MAX,
  POST_CONTENT_MIN,
  POST_CONTENT_MAX,
  COMMENT_MAX,
  MODERATION_REASON_MAX,
} from './enums.ts';
import { isoDateTime, pageQuery, paginated, rowId } from './common.ts';

export { communityApi, communityPath } from './paths.ts';

/** Per user, per rolling window: more is refused with 429. */
export const POST_RATE_LIMIT = { max: 5, windowMinutes: 10 } as const;
export const COMMENT_RATE_LIMIT = { max: 20, windowMinutes: 10 } as const;

export const moderationStatuses = ['pending', 'approved', 'flagged'] as const;
export type ModerationStatus = (typeof moderationStatuses)[number];
export const postActions = ['flag', 'unflag', 'approve'] as const;
export type PostAction = (typeof postActions)[number];
export const commentActions = ['approve', 'flag'] as const;
export type CommentAction = (typeof commentActions)[number];

const cropType = z.enum(cropTypes, { error: 'Choose the crop: Maize, Wheat, Rice or Beans' });
/** The spec's `leaf_blust` is a misspelling of leaf blast: accepted on input, stored and sent as `leaf_blast`. */
const diseaseType = z
  .enum([...diseaseTypes, 'leaf_blust'], {
    error: 'Choose a disease, or "I don\'t know"',
  })
  .transform((v) => (v === 'leaf_blust' ? 'leaf_blast' : v));
const urgencyLevel = z.enum(urgencyLevels, { error: 'Choose how urgent it is: Low, Medium or High' });

const requiredText = (label: string, min: number, max: number) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(min, min <= 1 ? `${label} is required` : `${label} must be at least ${min} characters`)
    .max(max, `${label} must be at most ${max} characters`);

export const postCreateBody = z.object({
  title: requiredText('Title', POST_TITLE_MIN, POST_TITLE_MAX),
  content: requiredText('Content', POST_CONTENT_MIN, POST_CONTENT_MAX),
  crop_type: cropType,
  /** Left out when the farmer does not know: stored as `none`. */
  disease_type: diseaseType.optional().transform((v) => v ?? 'none'),
  urgency_level: urgencyLevel,
  /** The id of one of the author's own analysis results. */
  rust_detection: rowId.json('rust_detection', 'rust_detection must be the id of one of your analyses').nullish(),
});
export type PostCreateBody = z.input<typeof postCreateBody>;

const postFilters = {
  crop_type: cropType.optional(),
  disease_type: diseaseType.optional(),
  urgency_level: urgencyLevel.optional(),
};
export const postListQuery = pageQuery.extend(postFilters);
export type PostListQuery = z.input<typeof postListQuery>;
export const allPostsQuery = pageQuery.extend({
  ...postFilters,
  status: z.enum(moderationStatuses, { error: 'Status must be pending, approved or flagged' }).optional(),
});
export type AllPostsQuery = z.input<typeof allPostsQuery>;

export const farmerComment = z.object({
  id: z.number().int(),
  content: z.string(),
  created_at: isoDateTime,
  username: z.string(),
  /** The spec's name for the commenter's username. */
  farmer: z.string(),
  /** Farmers see others' comments only once approved; their own show with their state. */
  status: z.enum(moderationStatuses),
});
export type FarmerComment = z.infer<typeof farmerComment>;

export const expertComment = z.object({
  id: z.number().int(),
  content: z.string(),
  created_at: isoDateTime,
  username: z.string(),
  /** The spec's name for the commenter's username. */
  expert: z.string(),
  /** The farmer comment this answers, when written while moderating it. */
  reply_to: z.number().int().nullable(),
});
export type ExpertComment = z.infer<typeof expertComment>;

export const communityPost = z.object({
  id: z.number().int(),
  title: z.string(),
  content: z.string(),
  /** The post's photo: a URL to GET with the bearer token (`communityApi.postImage`), or null. */
  image: z.string().nullable(),
  disease_type: z.enum(diseaseTypes),
  crop_type: z.enum(cropTypes),
  urgency_level: z.enum(urgencyLevels),
  rust_detection: z.number().int().nullable(),
  /** What the linked analysis found (its photo and heatmap: `/api/rust-detection/{id}/…`, owner and experts). */
  analysis: z
    .object({
      outcome: z.enum(['diagnosis', 'not_leaf']),
      rust_class: z.enum(rustClasses).nullable(),
      confidence: z.number(),
      unsure: z.boolean(),
      has_heatmap: z.boolean(),
    })
    .nullable(),
  is_flagged: z.boolean(),
  is_approved: z.boolean(),
  status: z.enum(moderationStatuses),
  /** Why the post was last flagged, unflagged or approved, when the expert said. */
  moderation_reason: z.string().nullable(),
  created_at: isoDateTime,
  author: z.string(),
  farmer_comments: z.array(farmerComment),
  expert_comments: z.array(expertComment),
});
export type CommunityPost = z.infer<typeof communityPost>;
export const communityPostPage = paginated(communityPost);
export type CommunityPostPage = z.infer<typeof communityPostPage>;

export const postModerateBody = z.object({
  action: z.enum(postActions, { error: 'Action must be flag, unflag or approve' }),
  reason: z
    .string()
    .trim()
    .max(MODERATION_REASON_MAX, `Reason must be at most ${MODERATION_REASON_MAX} characters`)
    .optional(),
});
export type PostModerateBody = z.input<typeof postModerateBody>;

export const commentCreateBody = z.object({ content: requiredText('Comment', 1, COMMENT_MAX) });
export type CommentCreateBody = z.input<typeof commentCreateBody>;

/** A comment as the moderating expert sees it (and as its author gets it back on creation). */
export const responseItem = z.object({
  id: z.number().int(),
  post_id: z.number().int(),
  kind: z.enum(['farmer', 'expert']),
  content: z.string(),
  status: z.enum(moderationStatuses),
  is_approved: z.boolean(),
  is_flagged: z.boolean(),
  created_at: isoDateTime,
  username: z.string(),
  reply_to: z.number().int().nullable(),
});
export type ResponseItem = z.infer<typeof responseItem>;
export const responsePage = paginated(responseItem);
export type ResponsePage = z.infer<typeof responsePage>;

export const responseModerateBody = z.object({
  /** Optional repeat of the comment id in the path (the spec's client sends it); must match. */
  response_id: rowId.json('response_id').optional(),
  action: z.enum(commentActions, { error: 'Action must be approve or flag' }),
  expert_comment: z
    .string()
    .trim()
    .max(COMMENT_MAX, `Expert comment must be at most ${COMMENT_MAX} characters`)
    .optional(),
  reason: z
    .string()
    .trim()
    .max(MODERATION_REASON_MAX, `Reason must be at most ${MODERATION_REASON_MAX} characters`)
    .optional(),
});
export type ResponseModerateBody = z.input<typeof responseModerateBody>;

export const responseModerateReply = z.object({
  response: responseItem,
  expert_comment: responseItem.nullable(),
});
export type ResponseModerateReply = z.infer<typeof responseModerateReply>;

export const moderationQueueQuery = pageQuery.extend({
  status: z
    .enum([...moderationStatuses, 'all'], { error: 'Status must be pending, approved, flagged or all' })
    .default('pending'),
});
export type ModerationQueueQuery = z.input<typeof moderationQueueQuery>;

export const moderationLogEntry = z.object({
  id: z.number().int(),
  actor: z.string(),
  action: z.string(),
  target_type: z.enum(['post', 'response']),
  target_id: z.number().int(),
  from_status: z.string().nullable(),
  to_status: z.string().nullable(),
  reason: z.string().nullable(),
  created_at: isoDateTime,
  /** The post the entry is about (the comment's post for a comment); null when it was deleted. */
  post_id: z.number().int().nullable(),
  post_title: z.string().nullable(),
});
export type ModerationLogEntry = z.infer<typeof moderationLogEntry>;
export const moderationLogPage = paginated(moderationLogEntry);
export type ModerationLogPage = z.infer<typeof moderationLogPage>;
export const moderationLogQuery = pageQuery.extend({
  target_type: z.enum(['post', 'response'], { error: 'target_type must be post or response' }).optional(),
  target_id: rowId('target_id').optional(),
});

export const postIdParam = z.object({ postId: rowId('postId') });

export const pendingCount = z.object({
  posts: z.number().int().describe('Posts waiting for moderation'),
  comments: z.number().int().describe("Farmers' comments waiting for moderation"),
  total: z.number().int(),
});
export type PendingCount = z.infer<typeof pendingCount>;
