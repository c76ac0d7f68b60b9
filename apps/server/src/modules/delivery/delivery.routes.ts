import { deliveryApi, deliveryReport, failedMessagePage, idParam, pageQuery } from '@kutu/contract';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { App } from '../../deps.ts';
import type { RouteContext } from '../../route-context.ts';
import type { DeliveryService } from './delivery.service.ts';
import { createWrongSecretLimit } from '../../lib/secret-tries.ts';
import { errorReplies, guard, publicRoute } from '../../lib/route-schema.ts';

const errors = errorReplies(400, 401, 403, 404);
const tags = ['admin'];

/** Failed messages for administrators, and the SMS gateway's delivery reports (docs/decisions/0050). */
export function deliveryRoutes(app: App, { services: { delivery } }: RouteContext<{ delivery: DeliveryService }>) {
  const admin = guard('admin');

  app.get(
    deliveryApi.failed,
    {
      schema: {
        tags,
        description:
          "Messages (SMS, email) that failed for good, newest first: each as it was sent (the recipient's language), with why it failed.",
        querystring: pageQuery,
        response: { 200: failedMessagePage, ...errors },
      },
      config: admin,
    },
    async (req) => delivery.failed(req.query),
  );

  app.post(
    deliveryApi.resend,
    {
      schema: {
        tags,
        description: 'Sends a failed message again (to the address the account has now).',
        params: idParam,
        response: { 204: z.null(), ...errors },
      },
      config: admin,
    },
    async (req, reply) => {
      await delivery.resend(req.params.id);
      return reply.status(204).send(null);
    },
  );

  // The gateway posts a form; only this route reads one.
  // Wrong secrets are counted per address and cut off (the right one never): the per-address limit is off for this route.
  const wrongSecrets = createWrongSecretLimit();
  app.register(async (plain) => {
    const scope = plain.withTypeProvider<ZodTypeProvider>();
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) =>
      done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );
    scope.post(
      deliveryApi.reports,
      {
        // A district's alert brings thousands of reports from the gateway's few addresses; the secret
        // (16+ characters) is what keeps others out.
        config: { ...publicRoute, rateLimit: false },
        schema: {
          tags: ['sms'],
          description:
            "Africa's Talking delivery report callback (form POST), recorded against the message it names. Needs `?secret=` (SMS_REPORT_SECRET).",
          querystring: z.object({ secret: z.string().max(200).optional() }),
          body: deliveryReport,
          response: { 204: z.null(), ...errorReplies(400, 403, 429) },
        },
      },
      async (req, reply) => {
        // Wrong ones counted and cut off per address, the right one never (lib/secret-tries.ts).
        wrongSecrets.assertRight(req.ip, delivery.secretMatches(req.query.secret));
        await delivery.report(req.body);
        return reply.status(204).send(null);
      },
    );
  });
}
