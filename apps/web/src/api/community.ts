import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  AllPostsQuery,
  CommentAction,
  CommentCreateBody,
  CommunityPost,
  CommunityPostPage,
  ModerationLogPage,
  ModerationQueueQuery,
  PendingCount,
  PostAction,
  PostCreateBody,
  PostListQuery,
  ResponseItem,
  ResponseModerateReply,
  ResponsePage,
} from '@kutu/contract';
import { communityApi, communityPath } from '@kutu/contract/paths';
import { ApiError, http } from '../lib/api.ts';
import { session } from '../lib/session.ts';
import i18n from '../lib/i18n.ts';

type Query = Record<string, string | number | undefined>;

/** Every community query starts with this key, so one invalidation reloads every list after a change. */
export const communityKey = ['community'] as const;

/** How many posts and comments wait for moderation (experts); new ones also arrive as a notification. */
export const pendingCountQuery = (enabled: boolean) =>
  queryOptions({
    queryKey: [...communityKey, 'pending-count'],
    queryFn: ({ signal }) => http.get<PendingCount>(communityApi.pendingCount, undefined, signal),
    enabled,
    refetchInterval: 60_000,
  });

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
      http.get<ResponsePage>(communityPath(communityApi.moderationQueue, { id: postId }), q as Query, signal),
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

/** A photo to send with a post: the (shrunk) bytes and a file name. */
export interface PostPhoto {
  blob: Blob;
  filename: string;
}

/** Without a photo the post goes as JSON; with one, as multipart/form-data with the same fields. */
export function postForm(body: PostCreateBody, photo: PostPhoto): FormData {
  const form = new FormData();
  for (const [key, value] of Object.entries(body)) {
    if (value !== undefined && value !== null) form.append(key, String(value));
  }
  form.append('image', photo.blob, photo.filename);
  return form;
}

export function useCreatePost() {
  const invalidate = useInvalidateCommunity();
  return useMutation({
    mutationFn: ({ body, photo }: { body: PostCreateBody; photo?: PostPhoto | null }) =>
      photo
        ? http.upload<CommunityPost>(communityApi.posts, postForm(body, photo))
        : http.post<CommunityPost>(communityApi.posts, body),
    onSuccess: invalidate,
  });
}

/**
 * A post's photo as an object URL (the request needs the bearer token, so <img src> cannot fetch it
 * itself). `enabled` lets a card wait until it scrolls into view.
 */
export function usePostImage(postId: number, url: string | null, enabled = true) {
  return useQuery({
    // Outside communityKey: reloading the lists after a change need not download the photos again.
    queryKey: ['community-image', postId, url],
    enabled: Boolean(url) && enabled,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 5 * 60_000,
    queryFn: async ({ signal }) => {
      const token = session.accessToken();
      const res = await fetch(url!, { headers: token ? { authorization: `Bearer ${token}` } : {}, signal });
      if (!res.ok) throw new ApiError(res.status, 'HTTP_ERROR', i18n.t('community.photoFailed'));
      return URL.createObjectURL(await res.blob());
    },
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
