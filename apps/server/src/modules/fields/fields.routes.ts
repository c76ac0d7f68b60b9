import { z } from 'zod';
import {
  field,
  fieldInput,
  fieldList,
  fieldPatch,
  fieldsApi,
  idParam,
  pageQuery,
  WALK_MAX_AGE_DAYS,
  walk,
  walkInput,
  walkList,
} from '@kutu/contract';
import type { App } from '../../deps.ts';
import type { RouteContext } from '../../route-context.ts';
import type { WalksService } from './walks.service.ts';
import type { FieldsService } from './fields.service.ts';
import { readIdempotencyKey } from '../../lib/idempotency-key.ts';
import { errorReplies, guard } from '../../lib/route-schema.ts';
import { caller } from '../../plugins/auth.ts';

const errors = errorReplies(400, 401, 403, 404, 409, 429);
const tags = ['fields'];

/** A farmer's fields and their scouting walks (docs/decisions/0078): the owner only; another's field is 404. */
export function fieldsRoutes(
  app: App,
  { services: { fields, walks } }: RouteContext<{ fields: FieldsService; walks: WalksService }>,
) {
  const farmer = guard('farmer');

  app.get(
    fieldsApi.list,
    {
      schema: {
        tags,
        description:
          "The caller's live fields, newest first, each with its number on a basic phone, its crop's age and stage today, its latest walk and when Kutu will ask for the next.",
        querystring: pageQuery,
        response: { 200: fieldList, ...errors },
      },
      config: farmer,
    },
    async (req) => fields.page(caller(req), req.query),
  );

  app.post(
    fieldsApi.list,
    {
      schema: {
        tags,
        description:
          "A new field. Without a district, the caller's own (400 when the account has none); a planting date not in the future nor more than PLANTED_MAX_DAYS_AGO days back; 409 when a live field of the caller has the name (whatever its case).",
        body: fieldInput,
        response: { 201: field, ...errors },
      },
      config: farmer,
    },
    async (req, reply) => reply.status(201).send(await fields.create(caller(req), req.body)),
  );

  app.get(
    fieldsApi.detail,
    {
      schema: {
        tags,
        description: 'One of the caller’s fields, retired ones too (`retired_at`); another farmer’s is 404.',
        params: idParam,
        response: { 200: field, ...errors },
      },
      config: farmer,
    },
    async (req) => fields.get(caller(req), req.params.id),
  );

  app.patch(
    fieldsApi.detail,
    {
      schema: {
        tags,
        description:
          'Changes any of the field’s facts (null clears an optional one). 409 for a retired field, for a name another live field has, and for another crop once the field has photos or walks (add a new field instead).',
        params: idParam,
        body: fieldPatch,
        response: { 200: field, ...errors },
      },
      config: farmer,
    },
    async (req) => fields.update(caller(req), req.params.id, req.body),
  );

  app.delete(
    fieldsApi.detail,
    {
      schema: {
        tags,
        description:
          'Retires the field: it leaves the lists, takes no more photos or walks and gets no more reminders; its photos and walks stay. Retiring it again changes nothing.',
        params: idParam,
        response: { 204: z.null(), ...errors },
      },
      config: farmer,
    },
    async (req, reply) => {
      await fields.retire(caller(req), req.params.id);
      return reply.status(204).send(null);
    },
  );

  app.get(
    fieldsApi.walks,
    {
      schema: {
        tags,
        description: 'The field’s scouting walks, latest walked first, each with its advice as it was given.',
        params: idParam,
        querystring: pageQuery,
        response: { 200: walkList, ...errors },
      },
      config: farmer,
    },
    async (req) => walks.list(caller(req), req.params.id, req.query),
  );

  app.post(
    fieldsApi.walks,
    {
      schema: {
        tags,
        description: `A scouting walk of the caller's live field: plants looked at and plants with rust at each stop (and optionally one of the caller's photos of this field per stop). Answers 201 with the walk: its incidence, the advice from crop, growth stage and incidence (field-rules.ts) and the comparison with the field's walk before; it answers the field's reminder and, with rust, opens the next. \`walked_at\` may be up to ${WALK_MAX_AGE_DAYS} days back (a walk counted offline, with \`offline: true\`), never in the future. With an \`Idempotency-Key\` header, a repeat answers 200 with the first walk and makes none. 409 for a retired field.`,
        params: idParam,
        body: walkInput,
        response: { 200: walk, 201: walk, ...errors },
      },
      config: farmer,
    },
    async (req, reply) => {
      const key = readIdempotencyKey(req);
      const { walk: made, created } = await walks.record(caller(req).userId, req.params.id, req.body.stops, {
        channel: req.body.offline ? 'offline' : 'web',
        stageSaid: req.body.growth_stage,
        walkedAt: req.body.walked_at ? new Date(req.body.walked_at) : undefined,
        idempotencyKey: key,
      });
      return reply.status(created ? 201 : 200).send(made);
    },
  );

  app.get(
    fieldsApi.walk,
    {
      schema: {
        tags,
        description: 'One walk with its advice, for the field’s owner or the expert who counted it at a plant clinic.',
        params: idParam,
        response: { 200: walk, ...errors },
      },
      config: guard('farmer', 'expert'),
    },
    async (req) => walks.get(caller(req), req.params.id),
  );
}
