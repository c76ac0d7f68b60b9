import { z } from 'zod';
import {
  consentChangeBody,
  consentState,
  deleteAccountBody,
  erasureList,
  pageQuery,
  messageReply,
  privacyApi,
} from '@kutu/contract';
import type { App } from '../../deps.ts';
import type { RouteContext } from '../../route-context.ts';
import type { ErasureService } from './erasure.service.ts';
import type { createExportService } from './export.service.ts';
import type { ConsentService } from './consent.service.ts';
import { message } from '../../i18n/i18n.ts';
import { tooMany } from '../../lib/errors.ts';
import { errorReplies, guard, guardBeforeVetting } from '../../lib/route-schema.ts';
import { caller } from '../../plugins/auth.ts';
import { renderedOnSend as say } from '../../plugins/language.ts';

const tags = ['privacy'];

/**
 * A person's data, theirs (docs/decisions/0067-consent-and-erasure.md): the archive of everything held,
 * consent choices, deleting the account; the administrator's erasure log.
 */
export function privacyRoutes(
  app: App,
  {
    deps,
    services: { consent, exporter, erasure },
  }: RouteContext<{
    consent: ConsentService;
    exporter: ReturnType<typeof createExportService>;
    erasure: ErasureService;
  }>,
) {
  // Guessing a password or code, or sending an SMS: the sign-in routes' limit per address.
  const limited = {
    rateLimit: {
      max: deps.config.authRateLimitMax,
      timeWindow: '1 minute',
      errorResponseBuilder: () => tooMany(message('errors.tooManyRequests')),
    },
  };
  // A person's own data, theirs whatever their vetting: an applicant or a refused expert or officer too.
  const person = guardBeforeVetting('farmer', 'expert', 'officer');
  app.addHook('onSend', async (req, reply, payload) => {
    if (req.url.startsWith('/api/privacy/')) reply.header('cache-control', 'no-store');
    return payload;
  });

  app.get(
    privacyApi.export,
    {
      schema: {
        tags,
        description: 'Everything Kutu holds about the caller, with their photos: one .tar.gz archive.',
        response: { 200: z.any().describe('application/gzip'), ...errorReplies(401, 403) },
      },
      config: { ...person, ...limited },
    },
    async (req, reply) => {
      const { bytes, filename } = await exporter.archive(caller(req).userId);
      return reply
        .type('application/gzip')
        .header('content-disposition', `attachment; filename="${filename}"`)
        .send(bytes);
    },
  );

  app.get(
    privacyApi.consents,
    {
      schema: { tags, response: { 200: consentState, ...errorReplies(401, 403) } },
      config: person,
    },
    async (req) => consent.current(caller(req).userId),
  );

  app.put(
    privacyApi.consents,
    {
      schema: {
        tags,
        description: 'Changes the SMS or training choice; each change is recorded with its time and text version.',
        body: consentChangeBody,
        response: { 200: consentState, ...errorReplies(400, 401, 403) },
      },
      config: person,
    },
    async (req) => consent.change(caller(req).userId, req.body, 'profile'),
  );

  app.post(
    privacyApi.deleteCode,
    {
      schema: {
        tags,
        description:
          'Sends a 4-digit code by SMS that confirms deleting the account (only for an account without a password: one with a password confirms with it).',
        response: { 204: z.null(), ...errorReplies(400, 401, 403, 429, 503) },
      },
      config: { ...person, ...limited },
    },
    async (req, reply) => {
      await erasure.sendCode(caller(req).userId);
      return reply.code(204).send(null);
    },
  );

  app.post(
    privacyApi.deleteAccount,
    {
      schema: {
        tags,
        description:
          'Erases the account: personal data, photos (storage too), sessions. Posts others answered stay, anonymised; photos shared for training stay, pointing to nobody.',
        body: deleteAccountBody,
        response: { 200: messageReply, ...errorReplies(400, 401, 403, 429) },
      },
      config: { ...person, ...limited },
    },
    async (req) => say(await erasure.deleteAccount(caller(req).userId, req.body)),
  );

  app.get(
    privacyApi.erasures,
    {
      schema: {
        tags,
        description: 'Administrators: the erasure log (when, role, how asked, counts), nothing of the person.',
        querystring: pageQuery,
        response: { 200: erasureList, ...errorReplies(400, 401, 403) },
      },
      config: guard('admin'),
    },
    async (req) => erasure.erasures(req.query),
  );
}
