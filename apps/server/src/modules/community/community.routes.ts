import {
  allPostsQuery,
  commentCreateBody,
  communityApi,
  communityPost,
  communityPostPage,
  errorBody,
  idParam,
  moderationLogPage,
  moderationLogQuery,
  moderationQueueQuery,
  pendingCount,
  postCreateBody,
  postIdParam,
  postListQuery,
  postModerateBody,
  responseItem,
  responseModerateBody,
  responseModerateReply,
  responsePage,
} from '@kutu/contract';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { App } from '../../deps.ts';
import type { RouteContext } from '../../route-context.ts';
import type { CommunityService } from './community.service.ts';
import { sendPhoto, type UploadedImage } from '../../lib/image-upload.ts';
import { sendJson } from '../../lib/json-text.ts';
import { caller } from '../../plugins/auth.ts';
import { postFieldsAsBody, readPostForm } from './community.upload.ts';
import { errorReplies, guard } from '../../lib/route-schema.ts';

/**
 * Roles are checked in `onRequest`, before the body is parsed and validated, so an anonymous caller gets
 * 401 and a farmer on an expert route 403 whatever they send.
 */
const errors = errorReplies(400, 401, 403, 404, 409, 429);
const uploadErrors = { ...errors, 413: errorBody, 415: errorBody };
const tags = ['community'];

export function communityRoutes(
  app: App,
  { deps, services: { community: service } }: RouteContext<{ community: CommunityService }>,
) {
  const signedIn = guard('farmer', 'expert');
  const farmer = guard('farmer');
  const expert = guard('expert');

  // The photo of a multipart post, read before the fields are validated and stored only after.
  const photos = new WeakMap<FastifyRequest, UploadedImage>();

  app.post(
    communityApi.posts,
    {
      schema: {
        tags,
        consumes: ['application/json', 'multipart/form-data'],
        description:
          'JSON, or multipart/form-data with the same fields as text plus an optional JPEG or PNG photo (at most 5 MB) in the field `image`. Both are checked by the same schema.',
        body: postCreateBody,
        response: { 201: communityPost, ...uploadErrors },
      },
      config: farmer,
      // A multipart form becomes the same body as JSON, so the schema below judges both alike.
      preValidation: async (req) => {
        if (!req.isMultipart()) return;
        const { fields, image } = await readPostForm(req, { limiter: deps.decodeLimiter, userId: caller(req).userId });
        if (image) photos.set(req, image);
        req.body = postFieldsAsBody(fields) as typeof req.body;
      },
    },
    async (req, reply) =>
      reply.status(201).send(await service.createPost(caller(req), req.body, photos.get(req) ?? null)),
  );

  app.get(
    communityApi.posts,
    {
      schema: { tags, querystring: postListQuery, response: { 200: communityPostPage, ...errors } },
      config: signedIn,
    },
    async (req, reply) => sendJson(reply, await service.listApproved(caller(req), req.query)),
  );

  app.get(
    communityApi.myPosts,
    {
      schema: { tags, querystring: postListQuery, response: { 200: communityPostPage, ...errors } },
      config: farmer,
    },
    async (req) => service.listMine(caller(req), req.query),
  );

  app.get(
    communityApi.allPosts,
    {
      schema: { tags, querystring: allPostsQuery, response: { 200: communityPostPage, ...errors } },
      config: expert,
    },
    async (req) => service.listAll(caller(req), req.query),
  );

  app.get(
    communityApi.post,
    { schema: { tags, params: idParam, response: { 200: communityPost, ...errors } }, config: signedIn },
    async (req) => service.getPost(caller(req), req.params.id),
  );

  app.get(
    communityApi.postImage,
    {
      schema: {
        tags,
        description: "The post's photo (JPEG or PNG), for whoever may see the post; 404 otherwise.",
        params: idParam,
        response: { 200: z.any(), ...errors },
      },
      config: signedIn,
    },
    async (req, reply) => {
      const photo = await service.postPhoto(caller(req), req.params.id);
      return sendPhoto(reply, photo);
    },
  );

  app.put(
    communityApi.moderatePost,
    {
      schema: { tags, params: idParam, body: postModerateBody, response: { 200: communityPost, ...errors } },
      config: expert,
    },
    async (req) => service.moderatePost(caller(req), req.params.id, req.body),
  );

  app.post(
    communityApi.responses,
    {
      schema: {
        tags,
        params: postIdParam,
        body: commentCreateBody,
        response: { 201: responseItem, ...errors },
      },
      config: signedIn,
    },
    async (req, reply) =>
      reply.status(201).send(await service.createComment(caller(req), req.params.postId, req.body.content)),
  );

  app.put(
    communityApi.moderateResponse,
    {
      schema: {
        tags,
        params: idParam,
        body: responseModerateBody,
        response: { 200: responseModerateReply, ...errors },
      },
      config: expert,
    },
    async (req) => service.moderateComment(caller(req), req.params.id, req.body),
  );

  app.get(
    communityApi.moderationQueue,
    {
      schema: {
        tags,
        params: idParam,
        querystring: moderationQueueQuery,
        response: { 200: responsePage, ...errors },
      },
      config: expert,
    },
    async (req) => service.moderationQueue(req.params.id, req.query),
  );

  app.get(
    communityApi.moderationLog,
    {
      schema: { tags, querystring: moderationLogQuery, response: { 200: moderationLogPage, ...errors } },
      config: expert,
    },
    async (req) => service.moderationLog(req.query),
  );

  app.get(
    communityApi.pendingCount,
    { schema: { tags, response: { 200: pendingCount, ...errors } }, config: expert },
    async () => service.pendingCount(),
  );
}
