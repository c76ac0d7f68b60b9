import {
  activateBody,
  activateReply,
  addEmailBody,
  api,
  changePasswordBody,
  changePasswordReply,
  completeProfileBody,
  confirmEmailBody,
  expertRegisterBody,
  farmerRegisterBody,
  forgotPasswordBody,
  languageBody,
  languageReply,
  loginBody,
  loginReply,
  messageReply,
  officerRegisterBody,
  refreshBody,
  registerReply,
  resendOtpBody,
  resetPasswordBody,
  resetPasswordByCodeBody,
  tokenPair,
  userRecord,
  verifyEmailBody,
  verifyEmailReply,
} from '@kutu/contract';
import type { App } from '../../deps.ts';
import type { RouteContext } from '../../route-context.ts';
import type { createAccountService } from './account.service.ts';
import type { createRecoveryService } from './recovery.service.ts';
import type { createSessionService } from './session.service.ts';
import type { SignupService } from './signup.service.ts';
import { message } from '../../i18n/i18n.ts';
import { tooMany } from '../../lib/errors.ts';
import { caller } from '../../plugins/auth.ts';
import { renderedOnSend as say } from '../../plugins/language.ts';
import { guard, publicRoute } from '../../lib/route-schema.ts';

const tags = ['auth'];

/** How long until the limit lifts, as the rate-limit plugin's own "1 minute" or "30 seconds". */
function waitingTime(ms: number) {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  return seconds >= 60
    ? message('units.minutes', { count: Math.round(seconds / 60) })
    : message('units.seconds', { count: seconds });
}

export function authRoutes(
  app: App,
  {
    deps,
    services: { signup, session, recovery, account },
  }: RouteContext<{
    signup: SignupService;
    session: ReturnType<typeof createSessionService>;
    recovery: ReturnType<typeof createRecoveryService>;
    account: ReturnType<typeof createAccountService>;
  }>,
) {
  /** Public, with a per-address limit: routes that guess or send something (sign-in, codes, resets, sign-up). */
  const limited = {
    ...publicRoute,
    rateLimit: {
      max: deps.config.authRateLimitMax,
      timeWindow: '1 minute',
      errorResponseBuilder: (_req: unknown, ctx: { ttl: number }) =>
        tooMany(message('errors.tooManyFromNetwork', { after: waitingTime(ctx.ttl) })),
    },
  };
  // Checked on request, before the body is validated: a stranger learns nothing about the body rules.
  const signedIn = guard();
  const signedInLimited = { ...limited, ...signedIn };

  // Replies here carry tokens, codes or account details: no cache (browser, proxy) may keep them (L11).
  app.addHook('onSend', async (req, reply, payload) => {
    if (req.url.startsWith('/api/auth/')) reply.header('cache-control', 'no-store');
    return payload;
  });

  app.post(
    api.auth.registerFarmer,
    { config: limited, schema: { tags, body: farmerRegisterBody, response: { 201: registerReply } } },
    async (req, reply) => reply.status(201).send(say(await signup.registerFarmer(req.body, await req.language()))),
  );

  app.post(
    api.auth.registerExpert,
    { config: limited, schema: { tags, body: expertRegisterBody, response: { 201: registerReply } } },
    async (req, reply) => reply.status(201).send(say(await signup.registerExpert(req.body, await req.language()))),
  );

  app.post(
    api.auth.registerOfficer,
    { config: limited, schema: { tags, body: officerRegisterBody, response: { 201: registerReply } } },
    async (req, reply) => reply.status(201).send(say(await signup.registerOfficer(req.body, await req.language()))),
  );

  app.post(
    api.auth.verifyEmail,
    { config: limited, schema: { tags, body: verifyEmailBody, response: { 200: verifyEmailReply } } },
    async (req) => say(await signup.verifyEmail(req.body.token, req.body.verificationCode)),
  );

  app.post(
    api.auth.resendOtp,
    { config: limited, schema: { tags, body: resendOtpBody, response: { 200: messageReply } } },
    async (req) => say(await signup.resendOtp(req.body.actionType, req.body.token)),
  );

  app.post(
    api.auth.activate,
    { config: limited, schema: { tags, body: activateBody, response: { 200: activateReply } } },
    async (req) => say(await signup.activate(req.body)),
  );

  app.post(
    api.auth.login,
    { config: limited, schema: { tags, body: loginBody, response: { 200: loginReply } } },
    async (req, reply) => {
      const { deviceCookie, ...signedInReply } = await session.login(
        (req.body.identifier ?? req.body.email) as string,
        req.body.password,
        req.headers.cookie,
      );
      reply.header('set-cookie', deviceCookie);
      return signedInReply;
    },
  );

  app.post(
    api.auth.refresh,
    { config: limited, schema: { tags, body: refreshBody, response: { 200: tokenPair } } },
    (req) => session.refresh(req.body.refresh),
  );

  app.post(
    api.auth.logout,
    { config: publicRoute, schema: { tags, body: refreshBody, response: { 200: messageReply } } },
    async (req) => say(await session.logout(req.body.refresh)),
  );

  app.post(
    api.auth.forgotPassword,
    { config: limited, schema: { tags, body: forgotPasswordBody, response: { 200: messageReply } } },
    async (req) =>
      say(
        req.body.email !== undefined
          ? await recovery.forgotPassword(req.body.email)
          : await recovery.forgotPasswordByPhone(req.body.phone!),
      ),
  );

  app.post(
    api.auth.resetPasswordByCode,
    { config: limited, schema: { tags, body: resetPasswordByCodeBody, response: { 200: messageReply } } },
    async (req) =>
      say(
        await recovery.resetPasswordByCode({
          phone: req.body.phone,
          code: req.body.code,
          newPassword: req.body.new_password,
        }),
      ),
  );

  app.post(
    api.auth.resetPassword,
    { config: limited, schema: { tags, body: resetPasswordBody, response: { 200: messageReply } } },
    async (req) => say(await recovery.resetPassword(req.body.token, req.body.new_password)),
  );

  app.put(
    api.auth.changePassword,
    {
      config: signedInLimited,
      schema: { tags, body: changePasswordBody, response: { 200: changePasswordReply } },
    },
    async (req) => say(await account.changePassword(caller(req).userId, req.body.oldPassword, req.body.newPassword)),
  );

  app.put(
    api.auth.completeProfile,
    {
      config: signedIn,
      schema: { tags, body: completeProfileBody, response: { 200: userRecord } },
    },
    (req) => account.completeProfile(caller(req).userId, req.body),
  );

  app.post(
    api.auth.addEmail,
    {
      config: signedInLimited,
      schema: { tags, body: addEmailBody, response: { 200: messageReply } },
    },
    async (req) => say(await account.addEmail(caller(req).userId, req.body.email)),
  );

  app.post(
    api.auth.confirmEmail,
    {
      config: signedInLimited,
      schema: { tags, body: confirmEmailBody, response: { 200: userRecord } },
    },
    (req) => account.confirmEmail(caller(req).userId, req.body.email, req.body.code),
  );

  app.get(api.auth.me, { config: signedIn, schema: { tags, response: { 200: userRecord } } }, (req) =>
    session.me(caller(req).userId),
  );

  app.put(
    api.auth.language,
    {
      config: signedIn,
      schema: { tags, body: languageBody, response: { 200: languageReply } },
    },
    (req) => account.setLanguage(caller(req).userId, req.body.language),
  );
}
