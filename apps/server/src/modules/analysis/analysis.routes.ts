import { z } from 'zod';
import {
  adviceInput,
  adviceItem,
  adviceList,
  analysisApi,
  analysisList,
  analysisListQuery,
  analysisResult,
  analysisUploadFields,
  educationResource,
  educationResourceInput,
  educationResourceList,
  educationResourcesQuery,
  errorBody,
  idParam,
  educationResourceTranslationInput,
  resourceTranslationParams,
} from '@kutu/contract';
import type { App } from '../../deps.ts';
import type { RouteContext } from '../../route-context.ts';
import type { AdviceService } from './advice.service.ts';
import type { ResourcesService } from './resources.service.ts';
import type { AnalysisService } from './analysis.service.ts';
import { contractMessage, message } from '../../i18n/i18n.ts';
import { badRequest } from '../../lib/errors.ts';
import { readIdempotencyKey } from '../../lib/idempotency-key.ts';
import { readImageUploads, sendPhoto } from '../../lib/image-upload.ts';
import { sendJson } from '../../lib/json-text.ts';
import { caller } from '../../plugins/auth.ts';
import { languageOf } from '../../plugins/language.ts';
import { errorReplies, guard } from '../../lib/route-schema.ts';

/**
 * Roles are checked in `onRequest`, before the body is read, so a caller without the role never
 * gets to upload 5 MB.
 */
const errors = errorReplies(400, 401, 403, 404, 413, 415, 429, 503);

export function analysisRoutes(
  app: App,
  {
    deps,
    services: { analysis, resources, advice },
  }: RouteContext<{ analysis: AnalysisService; resources: ResourcesService; advice: AdviceService }>,
) {
  const signedIn = guard('farmer', 'expert');
  const farmer = guard('farmer');
  const expert = guard('expert');
  const tags = ['rust-detection'];

  app.post(
    analysisApi.detect,
    {
      schema: {
        tags,
        consumes: ['multipart/form-data'],
        description:
          "Multipart form with one JPEG or PNG photo (at most 5 MB, 25 megapixels) in the field `image`, and optionally `field_id` (one of the caller's live fields: another's is 404, a retired one 400; left out, the photo goes to the farmer's latest field of the crop, made when there is none, or with `follow_up_of` to that diagnosis's field), `crop` (maize, beans, other; left out with `field_id`, the field's crop; one that is not the field's is 400) and `follow_up_of` (the id of an earlier diagnosis of the caller that this photo checks again, from the follow-up reminder; the diagnosis of another farmer answers 404). Answers 201 with the result; a photo with no leaf gets outcome `not_leaf` and no class. With an `Idempotency-Key` header (16–128 letters, digits, `-`, `_`), a repeat by the same user answers 200 with the first analysis and makes no new one.",
        response: { 200: analysisResult, 201: analysisResult, ...errors },
      },
      config: farmer,
    },
    async (req, reply) => {
      const key = readIdempotencyKey(req);
      if (key) {
        const earlier = await analysis.byIdempotencyKey(caller(req), key, await req.language());
        if (earlier) return reply.status(200).send(earlier);
      }
      const { images, fields } = await readImageUploads(req, {
        maxFiles: 1,
        fileField: 'image',
        decode: { limiter: deps.decodeLimiter, userId: caller(req).userId },
      });
      const parsed = analysisUploadFields.safeParse(fields);
      if (!parsed.success) {
        const problem = parsed.error.issues[0]?.message;
        const text = problem ? contractMessage(problem) : message('errors.upload.invalidFormFields');
        throw badRequest(text, { [String(parsed.error.issues[0]?.path[0] ?? 'crop')]: text });
      }
      const { result, created } = await analysis.analyse(caller(req), images[0], {
        crop: parsed.data.crop,
        fieldId: parsed.data.field_id,
        followUpOf: parsed.data.follow_up_of,
        idempotencyKey: key,
        language: await req.language(),
      });
      return reply.status(created ? 201 : 200).send(result);
    },
  );

  app.get(
    analysisApi.list,
    {
      schema: {
        tags,
        description:
          "The caller's analyses, newest first; with `field`, only the photos of that field of the caller (another's field is 404).",
        querystring: analysisListQuery,
        response: { 200: analysisList, ...errors },
      },
      config: signedIn,
    },
    async (req, reply) =>
      sendJson(reply, await analysis.listJson(caller(req), req.query, (stored) => languageOf(req, stored))),
  );

  app.get(
    analysisApi.detail,
    {
      schema: { tags, params: idParam, response: { 200: analysisResult, ...errors } },
      config: signedIn,
    },
    async (req) => analysis.get(caller(req), req.params.id, await req.language()),
  );

  app.get(
    analysisApi.image,
    {
      schema: {
        tags,
        description: 'The stored photo (JPEG or PNG), for its owner and for experts.',
        params: idParam,
        response: { 200: z.any(), ...errors },
      },
      config: signedIn,
    },
    async (req, reply) => {
      const photo = await analysis.photo(caller(req), req.params.id);
      return sendPhoto(reply, photo);
    },
  );

  app.post(
    analysisApi.photos,
    {
      schema: {
        tags,
        consumes: ['multipart/form-data'],
        description:
          "Another leaf of the same field (any diagnosis, sure or not, while `second_photo.photos_left` > 0), as a multipart form with one JPEG or PNG photo in the field `image` (same limits as the first). Owner only; at most 3 photos per answer. The answer becomes the field-level answer of all its photos (the leaves' log class shares summed and tempered, then the model's unsure rule; docs/decisions/0040, 0048). 409 when the first photo showed no leaf or the answer has 3 photos, 400 when the photo shows no leaf. With an `Idempotency-Key` header (a photo queued on the phone), a repeat answers with the analysis as it stands and adds nothing.",
        params: idParam,
        response: { 200: analysisResult, ...errors, 409: errorBody },
      },
      config: farmer,
    },
    async (req) => {
      const who = caller(req);
      const key = readIdempotencyKey(req);
      const language = await req.language();
      // Ownership and "still asking" are checked before the photo is read, so a refused caller
      // never uploads 5 MB; the service checks again with the row locked.
      const earlier = await analysis.beforeAddPhoto(who, req.params.id, key, language);
      if (earlier) return earlier;
      const { images } = await readImageUploads(req, {
        maxFiles: 1,
        fileField: 'image',
        decode: { limiter: deps.decodeLimiter, userId: who.userId },
      });
      return analysis.addPhoto(who, req.params.id, images[0], { language, idempotencyKey: key });
    },
  );

  app.get(
    analysisApi.photo,
    {
      schema: {
        tags,
        description: 'Photo `position` of an answer (0 is the first photo), for its owner and for experts.',
        params: idParam.extend({ position: z.coerce.number().int().min(0).max(2) }),
        response: { 200: z.any(), ...errors },
      },
      config: signedIn,
    },
    async (req, reply) => sendPhoto(reply, await analysis.photoAt(caller(req), req.params.id, req.params.position)),
  );

  app.get(
    analysisApi.heatmap,
    {
      schema: {
        tags,
        description: 'Where the model looked (transparent PNG to lay over the photo), for the owner and for experts.',
        params: idParam,
        response: { 200: z.any(), ...errors },
      },
      config: signedIn,
    },
    async (req, reply) => sendPhoto(reply, await analysis.heatmap(caller(req), req.params.id)),
  );

  const resourceTags = ['education-resources'];

  app.get(
    analysisApi.resources,
    {
      schema: {
        tags: resourceTags,
        querystring: educationResourcesQuery,
        response: { 200: educationResourceList, ...errors },
      },
      config: signedIn,
    },
    async (req) => resources.list(caller(req), req.query, req.query.language ?? (await req.language())),
  );

  app.post(
    analysisApi.resources,
    {
      schema: {
        tags: resourceTags,
        body: educationResourceInput,
        response: { 201: educationResource, ...errors },
      },
      config: expert,
    },
    async (req, reply) => reply.status(201).send(await resources.create(caller(req), req.body)),
  );

  app.put(
    analysisApi.resource,
    {
      schema: {
        tags: resourceTags,
        description:
          'Edits the resource: its link, class, order, and the English title and description (translations are kept as they are).',
        params: idParam,
        body: educationResourceInput,
        response: { 200: educationResource, ...errors },
      },
      config: expert,
    },
    async (req) => resources.update(caller(req), req.params.id, req.body),
  );

  app.put(
    analysisApi.resourceTranslation,
    {
      schema: {
        tags: resourceTags,
        description:
          'Writes the title and description in Kiswahili or Luganda; readers in that language see them instead of the English ones.',
        params: resourceTranslationParams,
        body: educationResourceTranslationInput,
        response: { 200: educationResource, ...errors },
      },
      config: expert,
    },
    async (req) => resources.translate(caller(req), req.params.id, req.params.language, req.body),
  );

  app.delete(
    analysisApi.resourceTranslation,
    {
      schema: {
        tags: resourceTags,
        description: 'Removes the translation: readers in that language see the English title and description again.',
        params: resourceTranslationParams,
        response: { 204: z.null(), ...errors },
      },
      config: expert,
    },
    async (req, reply) => {
      await resources.removeTranslation(caller(req), req.params.id, req.params.language);
      return reply.status(204).send(null);
    },
  );

  app.delete(
    analysisApi.resource,
    {
      schema: {
        tags: resourceTags,
        description: 'Retires the resource: it is no longer shown with results.',
        params: idParam,
        response: { 204: z.null(), ...errors },
      },
      config: expert,
    },
    async (req, reply) => {
      await resources.retire(caller(req), req.params.id);
      return reply.status(204).send(null);
    },
  );

  app.post(
    analysisApi.seen,
    {
      schema: {
        tags: ['rust-detection'],
        description: 'The farmer is looking at this result: its unread notification is marked read.',
        params: idParam,
        response: { 200: z.object({ updated: z.number().int() }), ...errors },
      },
      config: farmer,
    },
    async (req) => analysis.seen(caller(req), req.params.id),
  );

  const adviceTags = ['advice'];
  app.get(
    analysisApi.advice,
    {
      schema: {
        tags: adviceTags,
        description:
          "One entry per topic and crop, in the reader's language (the account's, else Accept-Language) where translated, else English (each entry says its `language`). Experts edit an entry by its id, in that entry's language.",
        response: { 200: adviceList, ...errors },
      },
      config: signedIn,
    },
    async (req) => advice.list(await req.language()),
  );

  app.put(
    analysisApi.adviceItem,
    {
      schema: {
        tags: adviceTags,
        params: idParam,
        body: adviceInput,
        response: { 200: adviceItem, ...errors },
      },
      config: expert,
    },
    async (req) => advice.update(caller(req), req.params.id, req.body),
  );
}
