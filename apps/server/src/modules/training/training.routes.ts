import {
  errorBody,
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
import type { App, ModuleDeps } from '../../deps.ts';
import { contractMessage } from '../../i18n/i18n.ts';
import { AppError, badRequest } from '../../lib/errors.ts';
import { readImageUploads, sendPhoto } from '../../lib/image-upload.ts';
import { caller } from '../../plugins/auth.ts';
import { renderedOnSend } from '../../plugins/language.ts';
import { createTrainingService, STALE_AFTER_MS, TRAINING_QUEUE } from './training.service.ts';

/** Roles are checked in `onRequest`, before any body is read: anonymous → 401, farmer → 403. */
const errors = {
  400: errorBody,
  401: errorBody,
  403: errorBody,
  404: errorBody,
  409: errorBody,
  413: errorBody,
  415: errorBody,
  503: errorBody,
};
const tags = ['training'];
const security = [{ bearer: [] }];

/** Retraining may take hours on a small CPU; the queue's heartbeat notices a dead worker far sooner. */
const JOB_EXPIRE_SECONDS = 12 * 60 * 60;

export function trainingRoutes(app: App, deps: ModuleDeps) {
  const service = createTrainingService(deps, deps.training, app.log);
  const expert = app.requireRole('expert');

  // Another process activated a version (a worker's retraining, a rollback): serve it here too.
  if (!deps.config.modelDir) {
    deps.coordinator.on('model-activated', () => {
      void service.followActiveModel((err) => app.log.error({ err }, 'could not load the newly activated model'));
    });
  }

  let staleCheck: NodeJS.Timeout | undefined;
  app.addHook('onClose', async () => clearInterval(staleCheck));
  deps.jobs.handle<{ jobId: number }>(TRAINING_QUEUE, (data, ctx) => service.runJob(data.jobId, ctx.id, ctx.signal), {
    expireInSeconds: JOB_EXPIRE_SECONDS,
    heartbeatSeconds: 30,
    retryLimit: 0,
    // An embedded database belongs to one process, so every 'running' job there was left by a dead one.
    onWorkerStart: async () => {
      // Before any job runs here: what a killed run of this machine left in DATA_DIR/tmp goes.
      await service.sweepWorkDir();
      await service.recoverStaleJobs(deps.database.kind === 'pglite' ? 0 : STALE_AFTER_MS);
      // On PostgreSQL another worker may die at any time: its job is failed once its heartbeat is stale.
      if (deps.database.kind === 'pglite') return;
      staleCheck = setInterval(() => {
        service.recoverStaleJobs(STALE_AFTER_MS).catch((err) => app.log.error({ err }, 'stale job recovery failed'));
      }, STALE_AFTER_MS / 2);
      staleCheck.unref();
    },
  });

  app.post(
    trainingApi.upload,
    {
      schema: {
        tags,
        security,
        consumes: ['multipart/form-data'],
        response: { 201: trainingUploadReply, ...errors },
      },
      onRequest: expert,
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
        .send(renderedOnSend(await service.uploadSamples(caller(req).userId, images, parsed.data)));
    },
  );

  app.get(
    trainingApi.samples,
    {
      schema: { tags, security, querystring: trainingSamplesQuery, response: { 200: trainingSamplePage, ...errors } },
      onRequest: expert,
    },
    async (req) => service.listSamples(req.query),
  );

  app.get(
    trainingApi.counts,
    { schema: { tags, security, response: { 200: sampleCounts, ...errors } }, onRequest: expert },
    async () => service.counts(),
  );

  app.post(
    trainingApi.fromAnalysis,
    {
      schema: { tags, security, body: fromAnalysisBody, response: { 201: trainingUploadReply, ...errors } },
      onRequest: expert,
    },
    async (req, reply) =>
      reply
        .status(201)
        .send(renderedOnSend(await service.fromAnalysis(caller(req).userId, req.body.analysis_id, req.body.label))),
  );

  app.patch(
    trainingApi.sample,
    {
      schema: { tags, security, params: idParam, body: relabelBody, response: { 200: trainingSample, ...errors } },
      onRequest: expert,
    },
    async (req) => service.relabel(req.params.id, req.body.label),
  );

  app.delete(
    trainingApi.sample,
    { schema: { tags, security, params: idParam, response: { 204: z.null(), ...errors } }, onRequest: expert },
    async (req, reply) => {
      await service.remove(req.params.id);
      return reply.status(204).send(null);
    },
  );

  app.get(
    trainingApi.sampleImage,
    {
      schema: {
        tags,
        security,
        params: idParam,
        response: { 200: z.any().describe('image/jpeg or image/png'), ...errors },
      },
      onRequest: expert,
    },
    async (req, reply) => {
      const { data, size, type } = await service.sampleImage(req.params.id);
      return sendPhoto(reply, { contentType: type, data, size });
    },
  );

  app.post(
    trainingApi.jobs,
    { schema: { tags, security, response: { 202: trainingJob, ...errors } }, onRequest: expert },
    async (req, reply) => reply.status(202).send(await service.startJob(caller(req).userId, await req.language())),
  );

  app.get(
    trainingApi.jobs,
    {
      schema: { tags, security, querystring: pageQuery, response: { 200: trainingJobPage, ...errors } },
      onRequest: expert,
    },
    async (req) => service.listJobs(req.query, await req.language()),
  );

  app.get(
    trainingApi.job,
    { schema: { tags, security, params: idParam, response: { 200: trainingJob, ...errors } }, onRequest: expert },
    async (req) => service.getJob(req.params.id, await req.language()),
  );

  app.get(
    trainingApi.versions,
    {
      schema: { tags, security, querystring: pageQuery, response: { 200: modelVersionPage, ...errors } },
      onRequest: expert,
    },
    async (req) => service.listVersions(req.query, await req.language()),
  );

  app.post(
    trainingApi.activateVersion,
    { schema: { tags, security, params: idParam, response: { 200: modelVersion, ...errors } }, onRequest: expert },
    async (req) => service.activateVersion(req.params.id, await req.language()),
  );
}
