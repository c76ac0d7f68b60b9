import {
  extensionApi,
  officerApplication,
  officerApplicationPage,
  officerApplicationsQuery,
  approveApplicationBody,
  expertApplication,
  expertApplicationPage,
  expertApplicationsQuery,
  idParam,
  refuseApplicationBody,
  vettingApi,
} from '@kutu/contract';
import type { App } from '../../deps.ts';
import type { RouteContext } from '../../route-context.ts';
import { caller } from '../../plugins/auth.ts';
import { errorReplies, guard } from '../../lib/route-schema.ts';

const errors = errorReplies(400, 401, 403, 404, 409);
const tags = ['admin'];

/**
 * Vetting by administrators (docs/decisions/0027, 0093): each role that needs approval
 * (approval-roles.ts) has its list, approve and refuse here, all served by the one applications
 * service; only `admin` accounts, made from the command line.
 */
export function vettingRoutes(app: App, { services: { applications } }: RouteContext) {
  const admin = guard('admin');

  app.get(
    vettingApi.applications,
    {
      schema: {
        tags,
        description: 'Expert applications: pending first (oldest first), then the decided ones (latest first).',
        querystring: expertApplicationsQuery,
        response: { 200: expertApplicationPage, ...errors },
      },
      config: admin,
    },
    async (req) => applications.list('expert', req.query),
  );

  app.post(
    vettingApi.approve,
    {
      schema: {
        tags,
        description:
          "Approves a pending expert, or a refused one with `{ from: 'refused' }` (409 when the application is no longer in that state); the expert is told in their language (app, SMS, email).",
        params: idParam,
        body: approveApplicationBody,
        response: { 200: expertApplication, ...errors },
      },
      config: admin,
    },
    async (req) => applications.approve('expert', caller(req).userId, req.params.id, req.body?.from ?? 'pending'),
  );

  app.post(
    vettingApi.refuse,
    {
      schema: {
        tags,
        description: 'Refuses a pending expert with a reason the expert reads (app, SMS, email, in their language).',
        params: idParam,
        body: refuseApplicationBody,
        response: { 200: expertApplication, ...errors },
      },
      config: admin,
    },
    async (req) => applications.refuse('expert', caller(req).userId, req.params.id, req.body.reason),
  );

  // Extension officers are vetted the same way (same bodies, same 409 on a race).
  app.get(
    extensionApi.applications,
    {
      schema: {
        tags,
        description: 'Extension officer applications: pending first (oldest first), then the decided ones.',
        querystring: officerApplicationsQuery,
        response: { 200: officerApplicationPage, ...errors },
      },
      config: admin,
    },
    async (req) => applications.list('officer', req.query),
  );

  app.post(
    extensionApi.approve,
    {
      schema: {
        tags,
        description:
          "Approves a pending extension officer, or a refused one with `{ from: 'refused' }`; they are told.",
        params: idParam,
        body: approveApplicationBody,
        response: { 200: officerApplication, ...errors },
      },
      config: admin,
    },
    async (req) => applications.approve('officer', caller(req).userId, req.params.id, req.body?.from ?? 'pending'),
  );

  app.post(
    extensionApi.refuse,
    {
      schema: {
        tags,
        description: 'Refuses a pending extension officer with a reason they read.',
        params: idParam,
        body: refuseApplicationBody,
        response: { 200: officerApplication, ...errors },
      },
      config: admin,
    },
    async (req) => applications.refuse('officer', caller(req).userId, req.params.id, req.body.reason),
  );

  app.post(
    extensionApi.withdraw,
    {
      schema: {
        tags,
        description:
          'Withdraws an approved extension officer with a reason they read: refused from then on, signed out everywhere (409 unless approved).',
        params: idParam,
        body: refuseApplicationBody,
        response: { 200: officerApplication, ...errors },
      },
      config: admin,
    },
    async (req) => applications.withdraw('officer', caller(req).userId, req.params.id, req.body.reason),
  );
}
