import { districtByCode, type Language } from '@kutu/contract';
import { t } from '../../i18n/i18n.ts';
import type { SpokenOutcome } from '../followup/followup.service.ts';
import type { Data, MenuCtx } from './menu.ts';
import { tr } from './menu.ts';
import type { BasicPhoneRepo } from './basic-phone.repo.ts';

/**
 * "Call me", from the USSD menu or an SMS keyword: one open request per farmer, so asking again while
 * one waits changes nothing. Returns whether a new request was written.
 */
export async function askCallBack(
  repo: Pick<BasicPhoneRepo, 'openCallbackOf' | 'addCallback'>,
  request: Parameters<BasicPhoneRepo['addCallback']>[0],
): Promise<boolean> {
  if (await repo.openCallbackOf(request.userId)) return false;
  await repo.addCallback(request);
  return true;
}

/**
 * What the menu changes, each ending the session with what was done. A known number changes only its
 * own settings (language, district, alerts), asks for a call back, or answers its own follow-up.
 */
export const actions = {
  async register(c: MenuCtx, d: Data): Promise<string> {
    const district = districtByCode(d.district ?? '');
    if (!d.name || !district) return tr(c, 'ussd.failed');
    const user = await c.uses.registerFromPhone(
      {
        phone: c.phone,
        name: d.name,
        language: c.lang,
        district: district.code,
        districtName: district.name,
        crops: d.crops ?? [],
      },
      { sms: d.sms === true, training: d.training === true },
    );
    if (!user) return tr(c, (await c.uses.repo.numberTaken(c.phone)) ? 'ussd.numberTaken' : 'ussd.failed');
    if (c.uses.tryOut) return tr(c, 'ussd.tryOutRegistered', { name: d.name });
    if (d.sms !== true) return tr(c, 'ussd.registeredQuiet', { name: d.name, code: c.code });
    return tr(c, 'ussd.registered', { name: d.name, district: district.name, code: c.code });
  },

  async setDistrict(c: MenuCtx, code: string): Promise<string> {
    if (!c.user) return tr(c, 'ussd.failed');
    await c.uses.saveSettings(c.user.id, { district: code });
    return tr(c, 'ussd.districtSet', { district: districtByCode(code)?.name ?? code });
  },

  /**
   * Turning alerts on is asking for SMS again: it also lifts a STOP sent earlier, recorded as the SMS
   * consent it is, and the reply says so (every SMS from Kutu is back, not only the alerts).
   */
  async setAlerts(c: MenuCtx, on: boolean, district: string, channel: 'ussd' | 'sms' = 'ussd'): Promise<string> {
    if (!c.user) return tr(c, 'ussd.failed');
    await c.uses.saveSettings(c.user.id, { sms_alerts: on });
    if (!on) return tr(c, 'ussd.alerts.nowOff', { code: c.code });
    if (!c.user.smsStoppedAt) return tr(c, 'ussd.alerts.nowOn', { district });
    await c.uses.resumeSms(c.user.id, channel, c.now);
    return tr(c, 'ussd.alerts.nowOnResumed', { district });
  },

  /**
   * A call with each rust advisory (docs/decisions/0123). It comes only while SMS alerts are on and no
   * STOP stands, so turning it on then says how to turn them on.
   */
  async setVoiceWarnings(c: MenuCtx, on: boolean, district: string): Promise<string> {
    if (!c.user) return tr(c, 'ussd.failed');
    await c.uses.saveSettings(c.user.id, { voice_warnings: on });
    if (!on) return tr(c, 'ussd.alerts.callsNowOff', { code: c.code });
    if (!c.user.smsAlerts || c.user.smsStoppedAt) return tr(c, 'ussd.alerts.callsNowOnQuiet', { code: c.code });
    return tr(c, 'ussd.alerts.callsNowOn', { phone: c.phone, district });
  },

  async callMe(c: MenuCtx, channel: 'ussd' | 'sms'): Promise<string> {
    if (!c.user) return tr(c, 'ussd.failed');
    const asked = await askCallBack(c.uses.repo, { userId: c.user.id, language: c.user.language, channel, now: c.now });
    return asked ? tr(c, 'ussd.callback.done', { phone: c.phone }) : tr(c, 'ussd.callback.already');
  },

  /**
   * Worse puts the case back in the expert queue (phone-answer.ts) and asks for a call back, as the reply
   * says: an expert will look at it and may call.
   */
  async followUp(c: MenuCtx, reminderId: number, said: SpokenOutcome): Promise<string> {
    if (!c.user) return tr(c, 'ussd.failed');
    const done = await c.uses.followUps.answer(c.user.id, reminderId, said);
    if (done === 'gone') return tr(c, 'ussd.follow.none');
    if (done === 'early') return tr(c, 'ussd.failed');
    if (said === 'worse' && !(await c.uses.repo.openCallbackOf(c.user.id))) {
      await c.uses.repo.addCallback({ userId: c.user.id, language: c.user.language, channel: 'ussd', now: c.now });
    }
    return tr(c, `ussd.follow.${said}`);
  },

  /** The voice gateway calls the farmer, who hears the last result and its advice (modules/voice). */
  async callWithResult(c: MenuCtx): Promise<string> {
    if (!c.user || !c.uses.callWithResult) return tr(c, 'ussd.failed');
    const placed = await c.uses.callWithResult(c.phone);
    if (placed === 'failed') return tr(c, 'ussd.failed');
    return tr(c, placed === 'calling' ? 'ussd.last.calling' : 'ussd.last.callWait', { phone: c.phone });
  },

  async setLanguage(c: MenuCtx, language: Language): Promise<string> {
    if (!c.user) return tr(c, 'ussd.failed');
    await c.uses.repo.setLanguage(c.user.id, language);
    return t(language, 'ussd.languageSet');
  },
};
