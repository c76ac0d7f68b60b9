import { dashboardApi, dashboardQuery, dashboardReply, errorBody } from '@kutu/contract';
import type { App, ModuleDeps } from '../../deps.ts';
import { sendJson } from '../../lib/json-text.ts';
import { caller } from '../../plugins/auth.ts';
import { createDashboardService } from './dashboard.service.ts';

export function dashboardRoutes(app: App, { db, clock }: ModuleDeps) {
  const dashboard = createDashboardService(db, clock);
  app.get(
    dashboardApi.summary,
    {
      schema: {
        tags: ['dashboard'],
        summary: "The signed-in user's statistics and chart series",
        description:
          'Farmers: their own analyses, posts and bookings. Experts: analyses across all farmers, and their own ' +
          'training uploads, training sessions, moderated posts and confirmed bookings. See each field.',
        security: [{ bearer: [] }],
        querystring: dashboardQuery,
        response: { 200: dashboardReply, 400: errorBody, 401: errorBody },
      },
      onRequest: app.authenticate,
    },
    async (req, reply) => sendJson(reply, await dashboard.reply(caller(req), req.query.tz)),
  );
}
