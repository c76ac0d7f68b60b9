import { dashboardApi, dashboardQuery, dashboardReply, errorBody } from '@kutu/contract';
import type { App } from '../../deps.ts';
import type { RouteContext } from '../../route-context.ts';
import type { createDashboardService } from './dashboard.service.ts';
import { sendJson } from '../../lib/json-text.ts';
import { farmerOrExpert } from '../../plugins/auth.ts';
import { guard } from '../../lib/route-schema.ts';

export function dashboardRoutes(
  app: App,
  { services: { dashboard } }: RouteContext<{ dashboard: ReturnType<typeof createDashboardService> }>,
) {
  app.get(
    dashboardApi.summary,
    {
      schema: {
        tags: ['dashboard'],
        summary: "The signed-in user's statistics and chart series",
        description:
          'Farmers: their own analyses, posts and bookings. Experts: analyses across all farmers, and their own ' +
          'training uploads, training sessions, moderated posts and confirmed bookings. See each field.',
        querystring: dashboardQuery,
        response: { 200: dashboardReply, 400: errorBody, 401: errorBody, 403: errorBody },
      },
      // Farmers and approved experts (an expert waiting for vetting sees no figures: docs/decisions/0027).
      config: guard('farmer', 'expert'),
    },
    async (req, reply) => sendJson(reply, await dashboard.reply(farmerOrExpert(req), req.query.tz)),
  );
}
