import {
  type CallbackPage,
  type CallbackQuery,
  districtByCode,
  FORMER_MEMBER,
  type Language,
  languages,
  possiblePhone,
} from '@kutu/contract';
import type { ModuleDeps } from '../../deps.ts';
import { type Params, t } from '../../i18n/i18n.ts';
import { randomUUID } from 'node:crypto';
import { type SmsKey, smsMessage, smsText } from '../../i18n/sms-texts.ts';
import { sendReply } from './sms-reply.ts';
import type { NumberOnly } from '../../lib/deliverer.ts';
import { forbidden, notFound } from '../../lib/errors.ts';
import { pageWindow, toPage } from '../../lib/pagination.ts';
import type { SignupService } from '../auth/signup.service.ts';
import type { FieldsService } from '../fields/fields.service.ts';
import type { WalksService } from '../fields/walks.service.ts';
import type { FollowUpService } from '../followup/followup.service.ts';
import type { ForecastService } from '../forecast/forecast.service.ts';
import type { OutbreakService } from '../outbreak/outbreak.service.ts';
import { actions, askCallBack } from './actions.ts';
import type { ConsentService } from '../privacy/consent.service.ts';
import type { ErasureService } from '../privacy/erasure.service.ts';
import { type MenuCtx, type MenuUses, runMenu } from './menu.ts';
import { screens, topicOfLast } from './screens-menu.ts';
import { createSmsFields } from './sms-fields.ts';
import { districtNamed, parseSms } from './sms-keywords.ts';
import { createBasicPhoneRepo, type BasicPhoneRepo } from './basic-phone.repo.ts';

/** Call-back requests as an officer's week reads and a call closes them (extension's `ExtensionSources`, through services.ts). */
export { callbackFacts, closeCallbacks } from './facts.repo.ts';

/**
 * The gateway's number as stored (E.164, decision 0024): `+` and digits; null when it is not one, or not a
 * number that can exist in a country Kutu serves (the contract's `possiblePhone`, decision 0127): such a
 * number registers nothing and reports nothing.
 */
export function phoneOf(raw: string): string | null {
  const digits = raw.replace(/[\s()-]/g, '');
  const phone = digits.startsWith('+') ? digits : `+${digits}`;
  return possiblePhone(phone) ? phone : null;
}

/**
 * Basic phones (docs/decisions/0051): the USSD menu, inbound SMS keywords, the try-out screen's step and
 * the experts' list of call-back requests.
 */
/** A number Kutu called with its last result is not called again before this (each call costs Kutu). */
export const CALL_AGAIN_AFTER_MS = 10 * 60_000;

export function createBasicPhoneService(
  deps: Pick<ModuleDeps, 'db' | 'clock' | 'sms' | 'config' | 'delivery' | 'calls'>,
  uses: {
    outbreak: OutbreakService;
    signup: SignupService;
    followUps: Pick<FollowUpService, 'byPhone'>;
    consent: Pick<ConsentService, 'record'>;
    erasure: Pick<ErasureService, 'bySms'>;
    fields: FieldsService;
    walks: Pick<WalksService, 'record'>;
    /** The coming week's rust risk on the menu's "rust in my district" (docs/decisions/0100). */
    forecast?: Pick<ForecastService, 'districtWeek'>;
  },
  log?: (err: unknown) => void,
) {
  const repo = createBasicPhoneRepo(deps.db);
  const smsFields = createSmsFields(uses);
  /**
   * "Hear it in a call": the voice gateway calls the number (modules/voice answers the call). Offered where
   * a gateway places calls, or outside production (the log transport logs them). Calls placed in the last
   * ten minutes are remembered per process.
   */
  const dialled = new Map<string, number>();
  async function callWithResult(phone: string): Promise<'calling' | 'wait' | 'failed'> {
    const now = deps.clock.now().getTime();
    if (now - (dialled.get(phone) ?? Number.NEGATIVE_INFINITY) < CALL_AGAIN_AFTER_MS) return 'wait';
    dialled.set(phone, now);
    try {
      await deps.calls.dial(phone);
      return 'calling';
    } catch (err) {
      dialled.delete(phone);
      log?.(err);
      return 'failed';
    }
  }
  const offerCall = deps.calls.kind === 'gateway' || !deps.config.isProduction;
  const menuUses: MenuUses = {
    ...(offerCall && { callWithResult }),
    repo,
    districtNow: uses.outbreak.districtNow,
    ...(uses.forecast && { rustWeather: uses.forecast.districtWeek }),
    followUps: uses.followUps.byPhone,
    saveSettings: (userId, body) => uses.outbreak.saveSettings(userId, body),
    resumeSms: (userId, channel, at) => uses.consent.record(userId, { sms: true }, channel, at),
    registerFromPhone: (input, choices) => uses.signup.registerFromPhone(input, choices),
    fields: uses.fields,
    walks: uses.walks,
  };
  /**
   * The try-out screen's menu for a number without an account: the same screens, but registering writes
   * nothing (a try-out must never make an account for someone else's number). A number without an
   * account has nothing else the menu could change.
   */
  const sandboxUses: MenuUses = { ...menuUses, registerFromPhone: async () => ({ id: 0 }), tryOut: true };
  const code = deps.config.phone.ussdCode;
  const termsUrl = `${deps.config.publicUrl.replace(/^https?:\/\//, '')}/terms`;

  async function base(phone: string, sandbox = false): Promise<Omit<MenuCtx, 'lang'>> {
    const user = (await repo.userByPhone(phone)) ?? null;
    const menu = sandbox && !user ? sandboxUses : menuUses;
    return { phone, user, now: deps.clock.now(), code, termsUrl, uses: menu };
  }

  /** One USSD request: the screen for the answers so far, `CON ` (waits) or `END ` (closes) first. */
  async function ussd(
    input: { sessionId: string; phoneNumber: string; text: string },
    sandbox = false,
  ): Promise<{ reply: string; end: boolean }> {
    const phone = phoneOf(input.phoneNumber);
    if (!phone) return { reply: `END ${t('en', 'ussd.failed')}`, end: true };
    const answers = input.text === '' ? [] : input.text.split('*');
    const c = await base(phone, sandbox);
    // The same session and answers sent again (a gateway's retry, a replay) repeat the reply, not the action.
    // The sandbox (a number without an account, tried out) records nothing, not even that it acted.
    const once = async (act: () => Promise<string>) =>
      sandbox && !c.user
        ? act()
        : ((await repo.actOnce({ sessionId: input.sessionId, phone, text: input.text }, c.now, act)) ??
          t(c.user?.language ?? 'en', 'ussd.ended', { code }));
    const shown = await runMenu(screens, answers, { ...c, once });
    return { reply: `${shown.end ? 'END' : 'CON'} ${shown.text}`, end: shown.end };
  }

  /**
   * One inbound SMS: its keyword acted on and answered in the sender's language, once per gateway id. The
   * gateway posts a message again when our answer did not reach it: as with USSD replays (`actOnce`),
   * the repeat does nothing.
   */
  async function inboundSms(input: { from: string; text: string; id?: string }): Promise<void> {
    const phone = phoneOf(input.from);
    if (!phone) return;
    if (!input.id) return answerSms(phone, input.text);
    await repo.actOnce({ sessionId: `sms:${input.id}`, phone, text: '' }, deps.clock.now(), async () => {
      await answerSms(phone, input.text, input.id);
      return '';
    });
  }

  /** `messageId`: the gateway's id of the message, which keys a walk it records (once, however often it comes). */
  async function answerSms(phone: string, text: string, messageId?: string): Promise<void> {
    const { command, language: keywordLanguage } = parseSms(text);
    const c = await base(phone);
    const language: Language = c.user?.language ?? keywordLanguage ?? 'en';
    // A reply goes through the outbox as what the person asked for at that moment: sent even after STOP,
    // tried again, and on the administrators' failed messages if it cannot go. A number without an account
    // gets it by its number, in the keyword's language.
    const to: number | NumberOnly = c.user?.id ?? { phone, language };
    const say = (key: SmsKey, params?: Params, event?: string) =>
      deps.delivery.tell({
        to,
        key: event ?? `sms-reply:${randomUUID()}`,
        kind: 'requested',
        sms: smsMessage(key, params),
      });
    if (!c.user) {
      // A number without an account: nothing to stop; anything else learns how to register.
      if (command.kind !== 'stop') await say('smsIn.unknownNumber', { code });
      return;
    }
    const user = c.user;
    const ctx: MenuCtx = { ...c, lang: language };
    const districtName = () => districtByCode(user.district ?? '')?.name ?? t(language, 'ussd.yourDistrict');
    switch (command.kind) {
      // STOP and START are the SMS consent, recorded as such.
      case 'stop':
        await uses.consent.record(user.id, { sms: false }, 'sms', c.now);
        return say('smsIn.stopped');
      case 'start':
        await uses.consent.record(user.id, { sms: true }, 'sms', c.now);
        return say('smsIn.started');
      case 'photosOn':
      case 'photosOff':
        await uses.consent.record(user.id, { training: command.kind === 'photosOn' }, 'sms', c.now);
        return say(command.kind === 'photosOn' ? 'smsIn.photosOn' : 'smsIn.photosOff');
      case 'delete': {
        const done = await uses.erasure.bySms(user.id, command.code);
        // The account is gone, and its outbox rows with it: this last reply goes straight to the number,
        // kept nowhere.
        if (done === 'erased') return sendReply(deps.sms, phone, smsText(language, 'smsIn.deleted', { code }), log);
        if (done === 'wrongCode') return say('smsIn.deleteWrongCode');
        if (done === 'adminCannot') return say('smsIn.deleteAdmin');
        if (typeof done === 'object') return say('smsIn.deleteWait', { wait: done.wait });
        return;
      }
      case 'alertsOn':
        await actions.setAlerts(ctx, true, districtName(), 'sms');
        // After STOP, ALERTS ON brings back every SMS from Kutu, and the reply says so.
        return say(user.smsStoppedAt ? 'smsIn.alertsOnResumed' : 'smsIn.alertsOn', { district: districtName() });
      case 'alertsOff':
        await actions.setAlerts(ctx, false, districtName());
        return say('smsIn.alertsOff');
      case 'district': {
        const district = districtNamed(command.name);
        if (!district) return say('smsIn.districtUnknown', { name: command.name.slice(0, 30) || '?' });
        await uses.outbreak.saveSettings(user.id, { district: district.code });
        return say('smsIn.district', { district: district.name });
      }
      case 'callMe': {
        await askCallBack(repo, { userId: user.id, language, channel: 'sms', now: c.now });
        return say('smsIn.callMe');
      }
      case 'fields':
      case 'walk':
      case 'walkHow': {
        const reply = await smsFields(user.id, language, command, { code, messageId });
        return say(reply.key, reply.params, reply.event);
      }
      default:
        return say('smsIn.help', { code });
    }
  }

  /**
   * The longest screen that carries the configured address (the terms, with a wrong answer's hint on top),
   * in every language: PUBLIC_URL is part of it, so the 182-character limit is checked at start.
   */
  async function longestAddressScreen(): Promise<number> {
    const guest = { phone: '+256700000000', user: null, now: deps.clock.now(), code, termsUrl, uses: menuUses };
    const lengths = await Promise.all(
      languages.map(async (_, i) => (await runMenu(screens, [String(i + 1), '1', 'x'], guest)).text.length),
    );
    return Math.max(...lengths);
  }

  return {
    ussd,
    longestAddressScreen,
    inboundSms,

    /** For Kutu's voice call (modules/voice): the caller's account, their last result, a call-back request. */
    phoneUser: (phone: string) => repo.userByPhone(phone),
    async lastResult(userId: number) {
      const last = await repo.lastDiagnosis(userId);
      return last ? topicOfLast(last) : undefined;
    },
    askCallBack: (request: Parameters<BasicPhoneRepo['addCallback']>[0]) => askCallBack(repo, request),

    /**
     * The try-out screen's step, through the same menu as the gateway's callback. It may act as the
     * caller's own number or as a number without an account (to try registering, in a sandbox that
     * makes no account), never as another person's: the menu shows and changes what belongs to the number.
     */
    async simulate(callerId: number, input: { session_id: string; phone: string; text: string }) {
      const caller = await repo.userById(callerId);
      const owner = await repo.userByPhone(input.phone);
      if (owner && owner.id !== caller?.id) throw forbidden('errors.phone.notYourNumber');
      // A number without an account runs in the sandbox: registering there leaves nothing behind.
      const step = await ussd(
        { sessionId: `try:${callerId}:${input.session_id}`, phoneNumber: input.phone, text: input.text },
        true,
      );
      return { ...step, screen: step.reply.slice(4) };
    },

    async callbacks(query: CallbackQuery): Promise<CallbackPage> {
      const { rows, total } = await repo.callbacks(query.state, pageWindow(query));
      return toPage(
        rows.map((r) => ({
          id: r.id,
          farmer: r.username,
          phone: r.phone,
          district: r.district ? (districtByCode(r.district)?.name ?? r.district) : null,
          language: r.language,
          channel: r.channel,
          created_at: r.createdAt.toISOString(),
          done_at: r.doneAt?.toISOString() ?? null,
          // An account erased since: the request stays closed, under the name erased authors share.
          done_by: r.doneAt
            ? {
                name: r.doneByName ?? FORMER_MEMBER.username,
                role: r.doneByRole === 'officer' || r.doneByRole === 'admin' ? r.doneByRole : 'expert',
              }
            : null,
          done_note: r.doneNote,
        })),
        total,
        query,
      );
    },

    async callbackDone(id: number, expertId: number): Promise<void> {
      if (!(await repo.callbackDone(id, expertId, deps.clock.now()))) throw notFound('errors.phone.noOpenCallback');
    },
  };
}
export type BasicPhoneService = ReturnType<typeof createBasicPhoneService>;
