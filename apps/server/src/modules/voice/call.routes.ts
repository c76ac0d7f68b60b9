import { z } from 'zod';
import { voiceApi, voiceAudioParams, voiceAudioQuery, voiceCallbackBody, voiceCallQuery } from '@kutu/contract';
import type { App } from '../../deps.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { parseForms } from '../../lib/form-body.ts';
import { errorReplies, publicRoute } from '../../lib/route-schema.ts';
import type { RouteContext } from '../../route-context.ts';
import type { createVoiceService } from './voice.service.ts';
import { gatewayKeyCheck } from '../../lib/gateway-key.ts';
import { phoneOf } from '../basic-phone/basic-phone.service.ts';

const tags = ['phone'];

/**
 * Africa's Talking's voice callback and the audio its `<Play>` fetches (docs/decisions/0087). The callback
 * proves itself with AT_CALLBACK_SECRET like the USSD one (`?key=`), counted per phone number; the audio
 * by a signature of its name, which only this server's answers carry.
 */
export function callRoutes(
  app: App,
  { deps: { config }, services: { voice } }: RouteContext<{ voice: ReturnType<typeof createVoiceService> }>,
) {
  const fromGateway = gatewayKeyCheck(config.phone.callbackSecret);

  app.register(async (scope: App) => {
    parseForms(scope);
    scope.post(
      voiceApi.call,
      {
        schema: {
          tags,
          description:
            "Africa's Talking voice callback (form: `sessionId`, `isActive`, `callerNumber`, `dtmfDigits`, …). Answers the call's next actions as XML (`<GetDigits>`, `<Play>`, `<Say>`). The gateway's secret goes in `?key=`; `step` and `lang` say which key press a `<GetDigits>` callback answers.",
          querystring: voiceCallQuery,
          body: voiceCallbackBody,
          response: { 200: z.string().describe('application/xml'), ...errorReplies(400, 403, 429, 503) },
        },
        onRequest: fromGateway,
        config: {
          ...publicRoute,
          rateLimit: {
            max: config.phone.rateLimitMax,
            timeWindow: '1 minute',
            hook: 'preHandler' as const,
            keyGenerator: (req: { body?: unknown; ip: string }) =>
              `call:${phoneOf(String((req.body as { callerNumber?: unknown } | undefined)?.callerNumber ?? '')) ?? req.ip}`,
          },
        },
      },
      async (req, reply) => {
        const xml = await voice.call.answer(req.body, req.query);
        return reply.type('application/xml; charset=utf-8').send(xml);
      },
    );
  });

  app.get(
    voiceApi.callAudio,
    {
      schema: {
        tags,
        description:
          "A sentence of the voice call as MP3, for the gateway's `<Play>`: only at the signed address the call's XML gave.",
        params: voiceAudioParams,
        querystring: voiceAudioQuery,
        response: { 200: z.any(), ...errorReplies(400, 404, 503) },
      },
      config: publicRoute,
    },
    async (req, reply) => {
      if (!config.phone.callbackSecret) throw new AppError('SERVICE_UNAVAILABLE', 'errors.phone.notConfigured', 503);
      const { name } = req.params;
      if (!voice.speaker.signed(name, req.query.sig)) throw notFound('errors.voice.notFound');
      const audio = await voice.speaker.stream(name).catch(() => {
        throw notFound('errors.voice.notFound');
      });
      if (audio.size !== undefined) reply.header('content-length', audio.size);
      return reply
        .type('audio/mpeg')
        .header('cache-control', 'public, max-age=86400')
        .header('x-content-type-options', 'nosniff')
        .send(audio.body);
    },
  );
}
