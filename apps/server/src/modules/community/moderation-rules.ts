import type { CommentAction, ModerationStatus, PostAction } from '@kutu/contract';
import { type Message, type MessageKey, message } from '../../i18n/i18n.ts';

/**
 * Post moderation: one state, so a post is never both flagged and approved.
 * pending → approved | flagged; flagged → pending (unflag) | approved; approved → flagged.
 */
export const postTransitions: Record<PostAction, { from: readonly ModerationStatus[]; to: ModerationStatus }> = {
  flag: { from: ['pending', 'approved'], to: 'flagged' },
  unflag: { from: ['flagged'], to: 'pending' },
  approve: { from: ['pending', 'flagged'], to: 'approved' },
};

/** Farmer comment moderation: approve and flag, each from the other states. */
export const commentTransitions: Record<CommentAction, { from: readonly ModerationStatus[]; to: ModerationStatus }> = {
  approve: { from: ['pending', 'flagged'], to: 'approved' },
  flag: { from: ['pending', 'approved'], to: 'flagged' },
};

export const postRefusal: Record<PostAction, (current: ModerationStatus) => Message> = {
  flag: () => message('errors.community.postAlreadyFlagged'),
  unflag: (current) =>
    message('errors.community.onlyFlaggedUnflag', { current: message(`errors.community.statuses.${current}`) }),
  approve: () => message('errors.community.postAlreadyApproved'),
};
export const commentRefusal: Record<CommentAction, MessageKey> = {
  approve: 'errors.community.commentAlreadyApproved',
  flag: 'errors.community.commentAlreadyFlagged',
};
export const postNotice: Record<PostAction, MessageKey> = {
  flag: 'notifications.postFlagged',
  unflag: 'notifications.postUnflagged',
  approve: 'notifications.postApproved',
};

export const commentNotice: Record<CommentAction, { alone: MessageKey; withReply: MessageKey }> = {
  approve: { alone: 'notifications.commentApproved', withReply: 'notifications.commentApprovedWithReply' },
  flag: { alone: 'notifications.commentFlagged', withReply: 'notifications.commentFlaggedWithReply' },
};
