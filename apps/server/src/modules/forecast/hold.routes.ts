import { z } from 'zod';
import {
  forecastApi,
  forecastHoldBody,
  forecastHoldParams,
  forecastScoreReply,
  pendingAdvisoriesReply,
} from '@kutu/contract';
import type { App } from '../../deps.ts';
import { errorReplies, guard } from '../../lib/route-schema.ts';
import { caller } from '../../plugins/auth.ts';
import type { ForecastService } from './forecast.service.ts';

const tags = ['forecast'];

/**
 * A person between the forecast and a national send (docs/decisions/0128): the week's advisories by district,
 * a hold with its reason, a hold lifted. Administrators and national officers; any other caller: 403.
 */
export function holdRoutes(app: App, forecast: ForecastService) {
  const staff = guard('admin', 'officer');

  app.get(
    forecastApi.pending,
    {
      schema: {
        tags,
        description:
          "Administrators and national officers: this week's advisories by district and crop from the latest run, with what the first high day rests on and whether each is due (when), held or sent; and this week's holds.",
        response: { 200: pendingAdvisoriesReply, ...errorReplies(401, 403) },
      },
      config: staff,
    },
    async (req) => forecast.pending(caller(req)),
  );

  app.post(
    forecastApi.sendNow,
    {
      schema: {
        tags,
        description:
          "Administrators and national officers: send the latest run's advisories now instead of at ADVISORY_SEND_HOUR, less the districts held now; nothing from weather past its maximum age. Each farmer is still told once a week per district and crop. Logged with who.",
        response: { 200: z.object({ told: z.number().int() }), ...errorReplies(401, 403) },
      },
      config: staff,
    },
    async (req) => forecast.sendNow(caller(req)),
  );

  app.post(
    forecastApi.holds,
    {
      schema: {
        tags,
        description:
          "Administrators and national officers: hold a district's advisories of this week (every crop), with the reason; logged with who and when, and shown in the bulletin. 409 when held already.",
        body: forecastHoldBody,
        response: { 201: z.object({ id: z.number().int() }), ...errorReplies(400, 401, 403, 409) },
      },
      config: staff,
    },
    async (req, reply) => reply.code(201).send(await forecast.hold(caller(req), req.body)),
  );

  app.post(
    forecastApi.liftHold,
    {
      schema: {
        tags,
        description:
          "Administrators and national officers: lift a hold; the district's advisories go at the next send hour. 409 when lifted already.",
        params: forecastHoldParams,
        response: {
          200: z.object({ id: z.number().int(), next_send_at: z.string() }),
          ...errorReplies(400, 401, 403, 404, 409),
        },
      },
      config: staff,
    },
    async (req) => forecast.liftHold(caller(req), req.params.id),
  );

  app.get(
    forecastApi.score,
    {
      schema: {
        tags,
        description:
          "Administrators and national officers: the forecast's score over the kept weeks where SMALL_COUNT_MIN farmers walked or rust was confirmed 7–21 days after (docs/decisions/0129): 'high' against rust seen (hit rate, false-alarm ratio, Peirce skill score), the Brier score of the levels against rust near alone, and rust seen per level, with the number of weeks behind it. The latest the weekly sweep stored, with its week (docs/decisions/0137); `score` null: not scored yet.",
        response: { 200: forecastScoreReply, ...errorReplies(401, 403) },
      },
      config: staff,
    },
    async (req) => forecast.scoreFor(caller(req)),
  );
}
