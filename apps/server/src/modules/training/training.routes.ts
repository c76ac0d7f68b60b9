import {
  activateVersionBody,
  fieldSetReply,
  fromAnalysisBody,
  idParam,
  modelVersion,
  modelVersionPage,
  pageQuery,
  relabelBody,
  sampleCounts,
  TRAINING_MAX_FILES,
  trainingApi,
  trainingJob,
  trainingJobPage,
  trainingSample,
  trainingSamplePage,
  trainingSamplesQuery,
  trainingUploadFields,
  trainingUploadReply,
} from '@kutu/contract';
import { z } from 'zod';
import type { App } from '../../deps.ts';
import type { RouteContext } from '../../route-context.ts';
import type { VersionsService } from './versions.service.ts';
import type { RetrainingService } from './retraining.service.ts';
import type { SamplesService } from './samples.service.ts';
import { contractMessage } from '../../i18n/i18n.ts';
import { AppError, badRequest } from '../../lib/errors.ts';
import { readImageUploads, sendPhoto } from '../../lib/image-upload.ts';
import { caller } from '../../plugins/auth.ts';
import { renderedOnSend } from '../../plugins/language.ts';
import { errorReplies, guard } from '../../lib/route-schema.ts';

/** Roles are checked in `onRequest`, before any body is read: anonymous → 401, farmer → 403. */
const errors = errorReplies(400, 401, 403, 404, 409, 413, 415, 503);
const tags = ['training'];

/** Samples, retraining jobs and model versions, for experts; the job itself runs in training.jobs.ts. */
export function trainingRoutes(
  app: App,
  {
    deps,
    services: { samples, retraining, versions },
  }: RouteContext<{ samples: SamplesService; retraining: RetrainingService; versions: VersionsService }>,
) {
  const expert = guard('expert');

  app.post(
    trainingApi.upload,
    {
      schema: {
        tags,
        consumes: ['multipart/form-data'],
        response: { 201: trainingUploadReply, ...errors },
      },
      config: expert,
    },
    async (req, reply) => {
      const { images, fields } = await readImageUploads(req, {
        maxFiles: TRAINING_MAX_FILES,
        decode: { limiter: deps.decodeLimiter, userId: caller(req).userId },
      }).catch((err) => {
        // The spec's own message for a training upload without an image.
        if (err instanceof AppError && err.says('errors.upload.missing')) {
          throw badRequest('errors.training.noImage', { image: 'errors.training.noImage' });
        }
        throw err;
      });
      const parsed = trainingUploadFields.safeParse(fields);
      if (!parsed.success) {
        const issues = Object.fromEntries(
          parsed.error.issues.map((i) => [String(i.path[0] ?? 'label'), contractMessage(i.message)]),
        );
        const first = parsed.error.issues[0]?.message;
        throw badRequest(first ? contractMessage(first) : 'errors.training.noLabel', issues);
      }
      return reply
        .status(201)
        .send(renderedOnSend(await samples.uploadSamples(caller(req).userId, images, parsed.data)));
    },
  );

  app.get(
    trainingApi.samples,
    {
      schema: { tags, querystring: trainingSamplesQuery, response: { 200: trainingSamplePage, ...errors } },
      config: expert,
    },
    async (req) => samples.listSamples(req.query),
  );

  app.get(
    trainingApi.counts,
    { schema: { tags, response: { 200: sampleCounts, ...errors } }, config: expert },
    async () => samples.counts(),
  );

  app.post(
    trainingApi.fromAnalysis,
    {
      schema: { tags, body: fromAnalysisBody, response: { 201: trainingUploadReply, ...errors } },
      config: expert,
    },
    async (req, reply) =>
      reply
        .status(201)
        .send(renderedOnSend(await samples.fromAnalysis(caller(req).userId, req.body.analysis_id, req.body.label))),
  );

  app.patch(
    trainingApi.sample,
    {
      schema: { tags, params: idParam, body: relabelBody, response: { 200: trainingSample, ...errors } },
      config: expert,
    },
    async (req) => samples.relabel(req.params.id, req.body.label),
  );

  app.delete(
    trainingApi.sample,
    { schema: { tags, params: idParam, response: { 204: z.null(), ...errors } }, config: expert },
    async (req, reply) => {
      await samples.remove(req.params.id);
      return reply.status(204).send(null);
    },
  );

  app.get(
    trainingApi.sampleImage,
    {
      schema: {
        tags,
        params: idParam,
        response: { 200: z.any().describe('image/jpeg or image/png'), ...errors },
      },
      config: expert,
    },
    async (req, reply) => {
      const { data, size, type } = await samples.sampleImage(req.params.id);
      return sendPhoto(reply, { contentType: type, data, size });
    },
  );

  app.post(
    trainingApi.jobs,
    { schema: { tags, response: { 202: trainingJob, ...errors } }, config: expert },
    async (req, reply) => reply.status(202).send(await retraining.startJob(caller(req).userId, await req.language())),
  );

  app.get(
    trainingApi.jobs,
    {
      schema: { tags, querystring: pageQuery, response: { 200: trainingJobPage, ...errors } },
      config: expert,
    },
    async (req) => retraining.listJobs(req.query, await req.language()),
  );

  app.get(
    trainingApi.job,
    { schema: { tags, params: idParam, response: { 200: trainingJob, ...errors } }, config: expert },
    async (req) => retraining.getJob(req.params.id, await req.language()),
  );

  app.get(
    trainingApi.versions,
    {
      schema: { tags, querystring: pageQuery, response: { 200: modelVersionPage, ...errors } },
      config: expert,
    },
    async (req) => versions.listVersions(req.query, await req.language()),
  );

  app.post(
    trainingApi.activateVersion,
    {
      schema: {
        tags,
        description:
          'Activates a stored version (experts). One the gate did not activate on its own only by an administrator who confirms its field figures (docs/decisions/0118); every activation is recorded.',
        params: idParam,
        body: activateVersionBody.nullish(),
        response: { 200: modelVersion, ...errors },
      },
      config: guard('expert', 'admin'),
    },
    async (req) => {
      const me = caller(req);
      return versions.activateVersion(req.params.id, await req.language(), me, req.body?.confirm_field_figures);
    },
  );

  app.get(
    trainingApi.fieldSet,
    {
      schema: {
        tags,
        description:
          'The farmers’ verified photos held back from training, by crop and class, and the last candidate’s field check (docs/decisions/0086); each crop’s unsure cut learnt from them, and whether and since when it answers (0119).',
        response: { 200: fieldSetReply, ...errors },
      },
      config: guard('expert', 'admin'),
    },
    async () => retraining.fieldSet(),
  );
}
