import { z } from 'zod';
import {
  errorBody,
  openFeedGeoJson,
  OPEN_FEED_CSV_COLUMNS,
  openFeedQuery,
  outbreakApi,
  outbreakExportQuery,
  outbreakMapQuery,
  outbreakMapReply,
  outbreakSettingsBody,
  outbreakSettingsReply,
  outbreakTablePage,
  outbreakTableQuery,
  outbreakTrendParams,
  outbreakTrendQuery,
  outbreakTrendReply,
  SMALL_COUNT_MIN,
} from '@kutu/contract';
import type { App } from '../../deps.ts';
import type { RouteContext } from '../../route-context.ts';
import type { createOpenFeedService } from './open-feed.service.ts';
import type { OutbreakService } from './outbreak.service.ts';
import { message } from '../../i18n/i18n.ts';
import { tooMany } from '../../lib/errors.ts';
import { caller } from '../../plugins/auth.ts';
import { errorReplies, guard, publicRoute } from '../../lib/route-schema.ts';

const errors = errorReplies(400, 401, 403, 404, 429);
const tags = ['outbreak'];
/** Requests per minute and address on the open feed (docs/decisions/0033). */
export const OPEN_FEED_PER_MINUTE = 30;

/** Outbreak watch (docs/decisions/0031–0033, 0052): map, trend, expert table and CSV, settings, and the open feed. */
export function outbreakRoutes(
  app: App,
  {
    services: { outbreak, openFeed },
  }: RouteContext<{ outbreak: OutbreakService; openFeed: ReturnType<typeof createOpenFeedService> }>,
) {
  const expert = guard('expert');
  const signedIn = guard('farmer', 'expert');
  // The published map and trends (small counts hidden): an approved extension officer reads them too.
  const readers = guard('farmer', 'expert', 'officer');

  app.get(
    outbreakApi.map,
    {
      schema: {
        tags,
        description: `Per district with any case in the window: confirmed (expert verdict) and reported (model only) rust cases of the crop, one farmer once a week; counts below ${SMALL_COUNT_MIN} as below_min, with no count.`,
        querystring: outbreakMapQuery,
        response: { 200: outbreakMapReply, ...errors },
      },
      config: readers,
    },
    async (req) => outbreak.map(req.query.crop, req.query.days),
  );

  app.get(
    outbreakApi.trend,
    {
      schema: {
        tags,
        description: "A district's confirmed and reported cases per ISO week over the last 12 weeks.",
        params: outbreakTrendParams,
        querystring: outbreakTrendQuery,
        response: { 200: outbreakTrendReply, ...errors },
      },
      config: readers,
    },
    async (req) => outbreak.trend(req.params.code, req.query.crop),
  );

  app.get(
    outbreakApi.districts,
    {
      schema: {
        tags,
        description:
          'Experts: districts with cases in the last 12 weeks, those with the most unreviewed reported cases first, with the 14-day counts and the weekly trend.',
        querystring: outbreakTableQuery,
        response: { 200: outbreakTablePage, ...errors },
      },
      config: expert,
    },
    async (req) => outbreak.table(req.query),
  );

  app.get(
    outbreakApi.exportCsv,
    {
      schema: {
        tags,
        description: `Experts: weekly counts per district and crop as CSV (\`<${SMALL_COUNT_MIN}\` for 0 to ${SMALL_COUNT_MIN - 1} cases; a week is listed only with ${SMALL_COUNT_MIN} or more).`,
        querystring: outbreakExportQuery,
        produces: ['text/csv'],
        response: { 200: z.string(), ...errors },
      },
      config: expert,
    },
    async (req, reply) =>
      reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="kutu-outbreak-weekly.csv"')
        .header('cache-control', 'no-store')
        .send(await outbreak.exportCsv(req.query)),
  );

  app.get(
    outbreakApi.settings,
    {
      schema: {
        tags,
        description: "The caller's district and whether outbreak alerts come by SMS.",
        response: { 200: outbreakSettingsReply, ...errors },
      },
      config: signedIn,
    },
    async (req) => outbreak.settings(caller(req).userId),
  );

  app.put(
    outbreakApi.settings,
    {
      schema: {
        tags,
        description: 'Set the district (from the shipped list) and/or turn SMS outbreak alerts on or off.',
        body: outbreakSettingsBody,
        response: { 200: outbreakSettingsReply, ...errors },
      },
      config: signedIn,
    },
    async (req) => outbreak.saveSettings(caller(req).userId, req.body),
  );

  // The open feed: no sign-in, read-only, its own per-address limit, cacheable for a few minutes.
  const open = {
    ...publicRoute,
    rateLimit: {
      max: OPEN_FEED_PER_MINUTE,
      timeWindow: '1 minute',
      errorResponseBuilder: () => tooMany(message('errors.outbreak.feedTooMany')),
    },
  };
  const feedDescription = `Open data, no sign-in: weekly expert-confirmed rust cases per district (Uganda) or county (Kenya) and crop, one farmer counted once a week, and the fields farmers walked that week (each once, docs/decisions/0078) with the median share of plants with rust on them. Each count is published at ${SMALL_COUNT_MIN} or more only; the fields walked, with their median, only when they belong to ${SMALL_COUNT_MIN} farmers or more (docs/decisions/0105), and a district-week with neither is not listed, so a district with fewer looks like one with none (docs/decisions/0052); try-out data is never included. Rate-limited per address. Boundaries: Natural Earth (public domain) and © OpenStreetMap contributors (ODbL).`;

  app.get(
    outbreakApi.openGeoJson,
    {
      config: open,
      schema: {
        tags: ['open-data'],
        description: `${feedDescription} GeoJSON: one Feature per district and crop with its boundary and weekly counts.`,
        querystring: openFeedQuery,
        produces: ['application/geo+json'],
        response: { 200: openFeedGeoJson, 400: errorBody, 429: errorBody },
      },
    },
    async (req, reply) => {
      reply.type('application/geo+json').header('cache-control', 'public, max-age=300');
      return openFeed.openGeoJson(req.query);
    },
  );

  app.get(
    outbreakApi.openCsv,
    {
      config: open,
      schema: {
        tags: ['open-data'],
        description: `${feedDescription} CSV columns: ${OPEN_FEED_CSV_COLUMNS.join(', ')} (a hidden count reads \`<${SMALL_COUNT_MIN}\`, a hidden median is empty).`,
        querystring: openFeedQuery,
        produces: ['text/csv'],
        response: { 200: z.string(), 400: errorBody, 429: errorBody },
      },
    },
    async (req, reply) =>
      reply
        .type('text/csv; charset=utf-8')
        .header('cache-control', 'public, max-age=300')
        .send(await openFeed.openCsv(req.query)),
  );
}
