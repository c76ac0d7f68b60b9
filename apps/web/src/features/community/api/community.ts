import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  communityApi,
  communityPath,
  type AllPostsQuery,
  type CommentAction,
  type CommentCreateBody,
  type CommunityPost,
  type CommunityPostPage,
  type ModerationLogPage,
  type ModerationQueueQuery,
  type PostAction,
  type PostCreateBody,
  type PostListQuery,
  type ResponseItem,
  type ResponseModerateReply,
  type ResponsePage,
} from '@kutu/contract';
import { http } from '../../../lib/api.ts';

type Query = Record<string, string | number | undefined>;

/** Every community query starts with this key, so one invalidation reloads every list after a change. */
export const communityKey = ['community'] as const;

export const approvedPostsQuery = (q: PostListQuery) =>
  queryOptions({
    queryKey: [...communityKey, 'posts', 'approved', q],
    queryFn: ({ signal }) => http.get<CommunityPostPage>(communityApi.posts, q as Query, signal),
  });

export const myPostsQuery = (q: PostListQuery) =>
  queryOptions({
    queryKey: [...communityKey, 'posts', 'mine', q],
    queryFn: ({ signal }) => http.get<CommunityPostPage>(communityApi.myPosts, q as Query, signal),
  });

export const allPostsQuery = (q: AllPostsQuery) =>
  queryOptions({
    queryKey: [...communityKey, 'posts', 'all', q],
    queryFn: ({ signal }) => http.get<CommunityPostPage>(communityApi.allPosts, q as Query, signal),
  });

export const postQuery = (id: number) =>
  queryOptions({
    queryKey: [...communityKey, 'post', id],
    queryFn: ({ signal }) => http.get<CommunityPost>(communityPath(communityApi.post, { id }), undefined, signal),
  });

export const moderationQueueQuery = (postId: number, q: ModerationQueueQuery) =>
  queryOptions({
    queryKey: [...communityKey, 'queue', postId, q],
    queryFn: ({ signal }) =>
      http.get<ResponsePage>(communityPath(communityApi.moderationQueue, { postId }), q as Query, signal),
  });

export const moderationLogQuery = (q: { page: number; page_size: number }) =>
  queryOptions({
    queryKey: [...communityKey, 'log', q],
    queryFn: ({ signal }) => http.get<ModerationLogPage>(communityApi.moderationLog, q, signal),
  });

function useInvalidateCommunity() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: communityKey });
}

export function useCreatePost() {
  const invalidate = useInvalidateCommunity();
  return useMutation({
    mutationFn: (body: PostCreateBody) => http.post<CommunityPost>(communityApi.posts, body),
    onSuccess: invalidate,
  });
}

export function useCreateComment() {
  const invalidate = useInvalidateCommunity();
  return useMutation({
    mutationFn: ({ postId, body }: { postId: number; body: CommentCreateBody }) =>
      http.post<ResponseItem>(communityPath(communityApi.responses, { postId }), body),
    onSuccess: invalidate,
  });
}

export function useModeratePost() {
  const invalidate = useInvalidateCommunity();
  return useMutation({
    mutationFn: ({ id, action, reason }: { id: number; action: PostAction; reason?: string }) =>
      http.put<CommunityPost>(communityPath(communityApi.moderatePost, { id }), { action, reason }),
    onSuccess: invalidate,
  });
}

export function useModerateComment() {
  const invalidate = useInvalidateCommunity();
  return useMutation({
    mutationFn: ({ id, action, expertComment }: { id: number; action: CommentAction; expertComment?: string }) =>
      http.put<ResponseModerateReply>(communityPath(communityApi.moderateResponse, { id }), {
        response_id: id,
        action,
        ...(expertComment?.trim() && { expert_comment: expertComment.trim() }),
      }),
    onSuccess: invalidate,
  });
}
