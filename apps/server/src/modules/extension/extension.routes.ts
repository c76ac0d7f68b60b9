import { z } from 'zod';
import {
  districtParams,
  extensionApi,
  officerAction,
  officerActionBody,
  officerMeReply,
  officerWeek,
  weekQuery,
} from '@kutu/contract';
import type { App } from '../../deps.ts';
import type { RouteContext } from '../../route-context.ts';
import type { ApplicationsService } from '../vetting/applications.service.ts';
import type { ExtensionService } from './extension.service.ts';
import { caller } from '../../plugins/auth.ts';
import { errorReplies, guard } from '../../lib/route-schema.ts';
import { weekCsv, weekPdf } from './report.ts';

const errors = errorReplies(400, 401, 403, 404);
const tags = ['extension'];

/**
 * Extension officers: their application, a district's week, what they did about a farmer, the report.
 * `guard('officer')` lets only approved officers in (the vetting gate); the service checks the
 * district is one of theirs (403) and exists (404).
 */
export function extensionRoutes(
  app: App,
  {
    deps,
    services: { extension, applications },
  }: RouteContext<{ extension: ExtensionService; applications: ApplicationsService }>,
) {
  const officer = guard('officer');

  app.get(
    extensionApi.me,
    {
      schema: {
        tags,
        description: "The caller's officer application: its state (a pending officer may read it) and districts.",
        response: { 200: officerMeReply, ...errors },
      },
      config: guard(),
    },
    async (req) => applications.officerMe(caller(req).userId),
  );

  app.get(
    extensionApi.week,
    {
      schema: {
        tags,
        description:
          "One of the officer's districts, its week: cases and trend, alerts and their messages, clinics, follow-ups, the expert queue, farmers to call.",
        params: districtParams,
        querystring: weekQuery,
        response: { 200: officerWeek, ...errors },
      },
      config: officer,
    },
    async (req) => extension.week(caller(req).userId, req.params.code, req.query.week),
  );

  app.post(
    extensionApi.actions,
    {
      schema: {
        tags,
        description:
          'Records a call or a visit to a farmer of the district, with a note; experts see it on the farmer’s case.',
        params: districtParams,
        body: officerActionBody,
        response: { 201: officerAction, ...errors },
      },
      config: officer,
    },
    async (req, reply) => reply.status(201).send(await extension.act(caller(req).userId, req.params.code, req.body)),
  );

  app.get(
    extensionApi.reportCsv,
    {
      schema: {
        tags,
        description: 'The week as CSV: district, name, week, section, item, value (the week screen’s numbers).',
        params: districtParams,
        querystring: weekQuery,
        produces: ['text/csv'],
        response: { 200: z.string(), ...errors },
      },
      config: officer,
    },
    async (req, reply) => {
      const week = await extension.week(caller(req).userId, req.params.code, req.query.week);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="kutu-${week.code}-${week.week}.csv"`)
        .header('cache-control', 'no-store')
        .send(weekCsv([week]));
    },
  );

  app.get(
    extensionApi.reportPdf,
    {
      schema: {
        tags,
        description: 'The week as a one-page PDF to print or forward.',
        params: districtParams,
        querystring: weekQuery,
        produces: ['application/pdf'],
        response: { 200: z.any(), ...errors },
      },
      config: officer,
    },
    async (req, reply) => {
      const week = await extension.week(caller(req).userId, req.params.code, req.query.week);
      return reply
        .type('application/pdf')
        .header('content-disposition', `attachment; filename="kutu-${week.code}-${week.week}.pdf"`)
        .header('cache-control', 'no-store')
        .send(await weekPdf([week], deps.clock.now(), await req.language()));
    },
  );

  // Every district of the officer at once: the CSV in blocks, the PDF one page per district.
  for (const kind of ['csv', 'pdf'] as const) {
    app.get(
      kind === 'csv' ? extensionApi.allReportCsv : extensionApi.allReportPdf,
      {
        schema: {
          tags,
          description:
            kind === 'csv'
              ? 'The week of every district of the officer as one CSV.'
              : 'The week of every district of the officer, one PDF page per district.',
          querystring: weekQuery,
          produces: [kind === 'csv' ? 'text/csv' : 'application/pdf'],
          response: { 200: z.any(), ...errors },
        },
        config: officer,
      },
      async (req, reply) => {
        const weeks = await extension.weeks(caller(req).userId, req.query.week);
        const name = `kutu-districts-${weeks[0].week}.${kind}`;
        reply.header('content-disposition', `attachment; filename="${name}"`).header('cache-control', 'no-store');
        return kind === 'csv'
          ? reply.type('text/csv; charset=utf-8').send(weekCsv(weeks))
          : reply.type('application/pdf').send(await weekPdf(weeks, deps.clock.now(), await req.language()));
      },
    );
  }
}
