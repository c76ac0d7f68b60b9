import { z } from 'zod';
import {
  districtForecastReply,
  errorBody,
  fieldForecastReply,
  forecastApi,
  forecastQuery,
  forecastWeekReply,
  openRiskGeoJson,
  openRiskQuery,
} from '@kutu/contract';
import type { App } from '../../deps.ts';
import { message } from '../../i18n/i18n.ts';
import { tooMany } from '../../lib/errors.ts';
import { errorReplies, guard, publicRoute } from '../../lib/route-schema.ts';
import { caller } from '../../plugins/auth.ts';
import type { RouteContext } from '../../route-context.ts';
import type { ForecastService } from './forecast.service.ts';
import { bulletinCsv } from './bulletin.ts';
import { bulletinPdf } from './bulletin-pdf.ts';
import { holdRoutes } from './hold.routes.ts';

const errors = errorReplies(400, 401, 403, 404, 429);
const tags = ['forecast'];
/** Requests per minute and address on the open risk feed (as the outbreak feed's). */
export const OPEN_RISK_PER_MINUTE = 30;

/** The week's rust forecast (docs/decisions/0100): every district's days, one district's reasons, a farmer's fields, the open feed. */
export function forecastRoutes(
  app: App,
  { deps, services: { forecast } }: RouteContext<{ forecast: ForecastService }>,
) {
  const readers = guard('farmer', 'expert', 'officer');
  // The week's risk for every district: administrators too, who hold or run it (docs/decisions/0128).
  const weekReaders = guard('farmer', 'expert', 'officer', 'admin');

  app.get(
    forecastApi.week,
    {
      schema: {
        tags,
        description:
          "Every district's rust risk for the crop over the next 7 days (low, moderate, high, or unknown without weather), from the latest forecast run, with the weather's age.",
        querystring: forecastQuery,
        response: { 200: forecastWeekReply, ...errors },
      },
      config: weekReaders,
    },
    async (req) => forecast.week(req.query.crop),
  );

  app.get(
    forecastApi.district,
    {
      schema: {
        tags,
        description:
          "One district's days with what each level rests on: wet hours in the rust's band, and rust here or next door.",
        params: z.object({ code: z.string().max(10) }),
        querystring: forecastQuery,
        response: { 200: districtForecastReply, ...errors },
      },
      config: readers,
    },
    async (req) => forecast.district(req.params.code, req.query.crop),
  );

  app.get(
    forecastApi.myFields,
    {
      schema: {
        tags,
        description:
          "The caller's live maize and bean fields, each with its district's worst level this week and the day to walk it by.",
        response: { 200: fieldForecastReply, ...errors },
      },
      config: guard('farmer'),
    },
    async (req) => forecast.myFields(caller(req).userId),
  );

  app.post(
    forecastApi.run,
    {
      schema: {
        tags,
        description:
          'Administrators: fetch the weather and run the forecast now (as the job does every WEATHER_EVERY_HOURS); its advisories go at the next ADVISORY_SEND_HOUR unless held (docs/decisions/0128). Returns the run and the state of the weather.',
        response: { 200: z.object({ run_id: z.number().int(), weather: z.enum(['known', 'unknown']) }), ...errors },
      },
      config: guard('admin'),
    },
    async () => forecast.runNow(),
  );

  holdRoutes(app, forecast);

  // The national bulletin, the same rows as CSV (codes, for spreadsheets) or PDF (the reader's language).
  for (const kind of ['csv', 'pdf'] as const) {
    app.get(
      kind === 'csv' ? forecastApi.bulletinCsv : forecastApi.bulletinPdf,
      {
        schema: {
          tags,
          description: `Administrators and national officers (docs/decisions/0122; any other officer: 403): the national bulletin as ${kind === 'csv' ? 'CSV' : "PDF in the reader's language"}. Every district and crop with its confirmed cases of the last 14 days, its walks' median incidence (latest week) and next week's risk, the districts to walk first at the top (a high week with nothing confirmed yet).`,
          produces: [kind === 'csv' ? 'text/csv' : 'application/pdf'],
          response: { 200: kind === 'csv' ? z.string() : z.any(), ...errors },
        },
        config: guard('admin', 'officer'),
      },
      async (req, reply) => {
        const bulletin = await forecast.bulletinFor(caller(req));
        reply
          .header('content-disposition', `attachment; filename="kutu-rust-bulletin.${kind}"`)
          .header('cache-control', 'no-store');
        return kind === 'csv'
          ? reply.type('text/csv; charset=utf-8').send(bulletinCsv(bulletin))
          : reply.type('application/pdf').send(await bulletinPdf(bulletin, deps.clock.now(), await req.language()));
      },
    );
  }

  const open = {
    ...publicRoute,
    rateLimit: {
      max: OPEN_RISK_PER_MINUTE,
      timeWindow: '1 minute',
      errorResponseBuilder: () => tooMany(message('errors.outbreak.feedTooMany')),
    },
  };

  app.get(
    forecastApi.openCsv,
    {
      config: open,
      schema: {
        tags: ['open-data'],
        description:
          "Open data, no sign-in: the latest forecast run's rust risk per district (Uganda) or county (Kenya), crop and day for the next 7 days (low, moderate, high, unknown), with the rules' version. Levels only, never counts. Rate-limited per address.",
        produces: ['text/csv'],
        response: { 200: z.string(), 400: errorBody, 429: errorBody },
      },
    },
    async (_req, reply) =>
      reply
        .type('text/csv; charset=utf-8')
        .header('cache-control', 'public, max-age=300')
        .send(await forecast.openCsv()),
  );

  app.get(
    forecastApi.openGeoJson,
    {
      config: open,
      schema: {
        tags: ['open-data'],
        description:
          "Open data, no sign-in: the latest forecast run's rust risk as GeoJSON, one Feature per district (Uganda) or county (Kenya) and crop with its boundary, its 7 days' levels (low, moderate, high, unknown) and the week's worst, with the rules' version and the weather's state. Levels only, never counts. Rate-limited per address. Boundaries: Natural Earth (public domain) and © OpenStreetMap contributors (ODbL).",
        querystring: openRiskQuery,
        produces: ['application/geo+json'],
        response: { 200: openRiskGeoJson, 400: errorBody, 429: errorBody },
      },
    },
    async (req, reply) => {
      reply.type('application/geo+json').header('cache-control', 'public, max-age=300');
      return forecast.openGeoJson(req.query.crop);
    },
  );
}
