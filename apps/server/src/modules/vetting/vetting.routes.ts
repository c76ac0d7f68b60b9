import {
  application,
  applicationPage,
  applicationParams,
  applicationRoleParams,
  applicationsQuery,
  approveApplicationBody,
  nationalOfficerBody,
  officerIdParams,
  refuseApplicationBody,
  vettingApi,
} from '@kutu/contract';
import type { App } from '../../deps.ts';
import type { RouteContext } from '../../route-context.ts';
import type { ApplicationsService } from './applications.service.ts';
import { caller } from '../../plugins/auth.ts';
import { errorReplies, guard } from '../../lib/route-schema.ts';

const errors = errorReplies(400, 401, 403, 404, 409);
const tags = ['admin'];

/**
 * Vetting by administrators (docs/decisions/0027, 0093): one family of routes with the role in the
 * path, for every role that needs approval (the contract's `approvalRoles`), all served by the one
 * applications service; only `admin` accounts, made from the command line.
 */
export function vettingRoutes(
  app: App,
  { services: { applications } }: RouteContext<{ applications: ApplicationsService }>,
) {
  const admin = guard('admin');

  app.get(
    vettingApi.applications,
    {
      schema: {
        tags,
        description: "A role's applications: pending first (oldest first), then the decided ones (latest first).",
        params: applicationRoleParams,
        querystring: applicationsQuery,
        response: { 200: applicationPage, ...errors },
      },
      config: admin,
    },
    async (req) => applications.list(req.params.role, req.query),
  );

  app.post(
    vettingApi.approve,
    {
      schema: {
        tags,
        description:
          "Approves a pending application, or a refused one with `{ from: 'refused' }` (409 when it is no longer in that state); the applicant is told in their language (app, SMS, email).",
        params: applicationParams,
        body: approveApplicationBody,
        response: { 200: application, ...errors },
      },
      config: admin,
    },
    async (req) =>
      applications.approve(req.params.role, caller(req).userId, req.params.id, req.body?.from ?? 'pending'),
  );

  app.post(
    vettingApi.refuse,
    {
      schema: {
        tags,
        description:
          'Refuses a pending application with a reason the applicant reads (app, SMS, email, in their language).',
        params: applicationParams,
        body: refuseApplicationBody,
        response: { 200: application, ...errors },
      },
      config: admin,
    },
    async (req) => applications.refuse(req.params.role, caller(req).userId, req.params.id, req.body.reason),
  );

  app.post(
    vettingApi.withdraw,
    {
      schema: {
        tags,
        description:
          'Withdraws an approval with a reason the applicant reads: refused from then on, signed out everywhere (409 unless approved).',
        params: applicationParams,
        body: refuseApplicationBody,
        response: { 200: application, ...errors },
      },
      config: admin,
    },
    async (req) => applications.withdraw(req.params.role, caller(req).userId, req.params.id, req.body.reason),
  );

  app.put(
    vettingApi.national,
    {
      schema: {
        tags,
        description:
          "Grants (`{ national: true }`) or takes back an approved extension officer's national scope: the national rust bulletin (CSV, PDF, the Monday email) beside their districts. Who changed it last, and when, is kept. 404 for no officer application, 409 unless approved.",
        params: officerIdParams,
        body: nationalOfficerBody,
        response: { 200: application, ...errors },
      },
      config: admin,
    },
    async (req) => {
      const done = await applications.setNational(caller(req).userId, req.params.id, req.body.national);
      req.log.info({ officer: req.params.id, national: req.body.national }, 'officer national scope changed');
      return done;
    },
  );
}
