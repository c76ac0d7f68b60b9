import { Readable } from 'node:stream';
import { z } from 'zod';
import {
  CLINIC_MAX_PHOTOS,
  clinicApi,
  clinicFarmerFieldsQuery,
  clinicFieldChoicePage,
  clinicRecordPage,
  clinicVerdictBody,
  clinicVisit,
  clinicVisitFields,
  IDEMPOTENCY_KEY_HEADER,
  idempotencyKey,
  idParam,
  pageQuery,
} from '@kutu/contract';
import type { App } from '../../deps.ts';
import type { RouteContext } from '../../route-context.ts';
import type { createClinicService } from './clinic.service.ts';
import { contractMessage, message } from '../../i18n/i18n.ts';
import { badRequest } from '../../lib/errors.ts';
import { readImageUploads } from '../../lib/image-upload.ts';
import { errorReplies, guard } from '../../lib/route-schema.ts';
import { caller } from '../../plugins/auth.ts';

const errors = errorReplies(400, 401, 403, 404, 409, 413, 415, 429, 503);
const tags = ['clinic'];
/** Look-ups of a farmer's fields per address and minute: a visit or two, not a list of numbers. */
const FARMER_FIELDS_PER_MINUTE = 20;

function readKey(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  const parsed = idempotencyKey.safeParse(Array.isArray(header) ? header.join(',') : header);
  if (!parsed.success) throw badRequest('errors.upload.invalidIdempotencyKey');
  return parsed.data;
}

/** Plant clinic visits (docs/decisions/0053): approved experts only (`guard` asks the vetting gate). */
export function clinicRoutes(
  app: App,
  { deps, services: { clinic } }: RouteContext<{ clinic: ReturnType<typeof createClinicService> }>,
) {
  const expert = guard('expert');

  app.post(
    clinicApi.visits,
    {
      schema: {
        tags,
        consumes: ['multipart/form-data'],
        description: `Multipart form: 1 to ${CLINIC_MAX_PHOTOS} photos in the field \`photos\` (the farmer's upload checks: JPEG or PNG by content, 5 MB, 25 megapixels), and the fields of \`clinicVisitFields\`. A number without an account needs \`farmer_name\`, \`district\`, \`language\` and \`consent=true\`: a phone-only farmer is made. Answers 201 with Kutu's diagnosis of each photo; with an \`Idempotency-Key\` a repeat answers 200 with the first visit.`,
        response: { 200: clinicVisit, 201: clinicVisit, ...errors },
      },
      config: expert,
    },
    async (req, reply) => {
      const who = caller(req);
      const key = readKey(req.headers[IDEMPOTENCY_KEY_HEADER.toLowerCase()]);
      const { images, fields } = await readImageUploads(req, {
        maxFiles: CLINIC_MAX_PHOTOS,
        fileField: 'photos',
        decode: { limiter: deps.decodeLimiter, userId: who.userId },
      });
      const parsed = clinicVisitFields.safeParse(fields);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const text = issue?.message ? contractMessage(issue.message) : message('errors.upload.invalidFormFields');
        throw badRequest(text, { [String(issue?.path[0] ?? 'phone_number')]: text });
      }
      const { visit, created } = await clinic.record(who, parsed.data, images, {
        idempotencyKey: key,
        language: await req.language(),
      });
      return reply.status(created ? 201 : 200).send(visit);
    },
  );

  app.get(
    clinicApi.visits,
    {
      schema: {
        tags,
        description: "The caller's own clinic records, newest first (the farmer's number in full: the expert took it).",
        querystring: pageQuery,
        response: { 200: clinicRecordPage, ...errors },
      },
      config: expert,
    },
    async (req) => clinic.list(caller(req), req.query),
  );

  app.get(
    clinicApi.csv,
    {
      schema: {
        tags,
        description:
          "The caller's clinic records as CSV, the fields PlantwisePlus records; farmer numbers masked, cells that a spreadsheet would read as formulas neutralised.",
        produces: ['text/csv'],
        response: { 200: z.any(), ...errors },
      },
      config: expert,
    },
    async (req, reply) =>
      reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="kutu-clinic-records.csv"')
        .header('cache-control', 'no-store')
        .send(Readable.from(clinic.csv(caller(req)))),
  );

  app.get(
    clinicApi.farmerFields,
    {
      schema: {
        tags,
        description:
          "The live fields of the farmer of `phone_number`, for the visit form's choice of field (none for a number without a farmer).",
        querystring: clinicFarmerFieldsQuery,
        response: { 200: clinicFieldChoicePage, ...errors },
      },
      // An expert looks up the number of the farmer in front of them, not a list of numbers.
      config: { ...expert, rateLimit: { max: FARMER_FIELDS_PER_MINUTE, timeWindow: '1 minute' } },
    },
    async (req) => clinic.farmerFields(req.query),
  );

  app.get(
    clinicApi.visit,
    {
      schema: { tags, params: idParam, response: { 200: clinicVisit, ...errors } },
      config: expert,
    },
    async (req) => clinic.get(caller(req), req.params.id, await req.language()),
  );

  app.post(
    clinicApi.verdict,
    {
      schema: {
        tags,
        description:
          "The expert confirms or corrects Kutu's diagnosis: it becomes the review verdict of every photo (training sample, outbreak case), and the farmer gets one result SMS in their language. A repeat with the same verdict answers the visit as it is; another verdict is 409.",
        params: idParam,
        body: clinicVerdictBody,
        response: { 200: clinicVisit, ...errors },
      },
      config: expert,
    },
    async (req) => clinic.decide(caller(req), req.params.id, req.body, await req.language()),
  );
}
