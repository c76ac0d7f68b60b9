import { z } from 'zod';
import {
  callbackPage,
  callbackParams,
  callbackQuery,
  phoneApi,
  smsInboundBody,
  ussdCallbackBody,
  ussdSimulateBody,
  ussdSimulateReply,
  USSD_SCREEN_MAX,
} from '@kutu/contract';
import type { App } from '../../deps.ts';
import type { RouteContext } from '../../route-context.ts';
import { parseForms } from '../../lib/form-body.ts';
import { errorReplies, guard, publicRoute } from '../../lib/route-schema.ts';
import { caller } from '../../plugins/auth.ts';
import { gatewayKeyCheck } from '../../lib/gateway-key.ts';
import { phoneOf, type BasicPhoneService } from './basic-phone.service.ts';

const tags = ['phone'];
const gatewayQuery = z.object({ key: z.string().max(200).optional() });

/**
 * Basic phones (docs/decisions/0051): the gateway's USSD and inbound SMS callbacks (its secret, a limit
 * per phone number instead of per address: the gateway is one address for every farmer), the try-out
 * step for administrators and experts, and the experts' call-back list.
 */
export function basicPhoneRoutes(
  app: App,
  { deps: { config }, services: { basicPhone } }: RouteContext<{ basicPhone: BasicPhoneService }>,
) {
  const opts = { secret: config.phone.callbackSecret, perNumberPerMinute: config.phone.rateLimitMax };
  // Public to the token check: the gateway proves itself with its secret (`fromGateway`).
  const perNumber = (field: 'phoneNumber' | 'from') => ({
    ...publicRoute,
    rateLimit: {
      max: opts.perNumberPerMinute,
      timeWindow: '1 minute',
      hook: 'preHandler' as const,
      // The number as the menu reads it (phoneOf): "256 700-000 071" and "+256700000071" are one farmer.
      keyGenerator: (req: { body?: unknown; ip: string }) =>
        `phone:${phoneOf(String((req.body as Record<string, unknown> | undefined)?.[field] ?? '')) ?? req.ip}`,
    },
  });
  const fromGateway = gatewayKeyCheck(opts.secret);
  // A screen over the gateway's limit is cut or refused by it: a PUBLIC_URL too long for the terms screen
  // stops the start, naming the setting, rather than every registration failing later.
  app.addHook('onReady', async () => {
    const longest = await basicPhone.longestAddressScreen();
    if (longest > USSD_SCREEN_MAX) {
      throw new Error(
        `PUBLIC_URL makes the USSD terms screen ${longest} characters, over the gateway's ${USSD_SCREEN_MAX}: use a shorter address`,
      );
    }
  });

  app.register(async (scope: App) => {
    parseForms(scope);
    scope.post(
      phoneApi.ussd,
      {
        schema: {
          tags,
          description:
            "Africa's Talking USSD callback (form). Answers text/plain: `CON <screen>` waits for input, `END <text>` closes. The gateway's secret goes in `?key=`.",
          querystring: gatewayQuery,
          body: ussdCallbackBody,
          response: { 200: z.string().describe('text/plain: `CON …` or `END …`'), ...errorReplies(400, 403, 429, 503) },
        },
        onRequest: fromGateway,
        config: perNumber('phoneNumber'),
      },
      async (req, reply) => {
        const step = await basicPhone.ussd(req.body);
        return reply.type('text/plain; charset=utf-8').send(step.reply);
      },
    );
    scope.post(
      phoneApi.sms,
      {
        schema: {
          tags,
          description:
            "Africa's Talking two-way SMS callback (form): keywords in en, sw, lg; the reply goes by SMS in the sender's language.",
          querystring: gatewayQuery,
          body: smsInboundBody,
          response: { 200: z.string().describe('text/plain: OK'), ...errorReplies(400, 403, 429, 503) },
        },
        onRequest: fromGateway,
        config: perNumber('from'),
      },
      async (req, reply) => {
        await basicPhone.inboundSms(req.body);
        return reply.type('text/plain; charset=utf-8').send('OK');
      },
    );
  });

  app.post(
    phoneApi.simulate,
    {
      schema: {
        tags,
        description: 'Administrators and experts: one step of the USSD menu, as a phone would get it.',
        body: ussdSimulateBody,
        response: { 200: ussdSimulateReply, ...errorReplies(400, 401, 403, 429) },
      },
      config: guard('admin', 'expert'),
    },
    async (req) => basicPhone.simulate(caller(req).userId, req.body),
  );

  app.get(
    phoneApi.callbacks,
    {
      schema: {
        tags,
        description: 'Experts: farmers who asked to be called back (open: oldest first; done: newest first).',
        querystring: callbackQuery,
        response: { 200: callbackPage, ...errorReplies(400, 401, 403) },
      },
      config: guard('expert'),
    },
    async (req) => basicPhone.callbacks(req.query),
  );

  app.post(
    phoneApi.callbackDone,
    {
      schema: {
        tags,
        params: callbackParams,
        response: { 204: z.null(), ...errorReplies(400, 401, 403, 404) },
      },
      config: guard('expert'),
    },
    async (req, reply) => {
      await basicPhone.callbackDone(req.params.id, caller(req).userId);
      return reply.code(204).send(null);
    },
  );
}
