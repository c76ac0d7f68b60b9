import type { Language } from '@kutu/contract';
import { type MessageKey, type Params, t } from '../../i18n/i18n.ts';
import type { PhoneUser, BasicPhoneRepo } from './basic-phone.repo.ts';
import type { OutbreakService } from '../outbreak/outbreak.service.ts';
import type { PhoneFollowUp } from '../followup/followup.service.ts';
import type { PhoneFarmerInput } from '../auth/signup.service.ts';
import type { FieldsService } from '../fields/fields.service.ts';
import type { WalksService } from '../fields/walks.service.ts';

/** What the menu may read and change, handed in by the service (so screens stay plain functions). */
export interface MenuUses {
  repo: BasicPhoneRepo;
  districtNow: OutbreakService['districtNow'];
  /** The district's coming week per crop (the forecast module's, docs/decisions/0100); unset: not shown. */
  rustWeather?: (district: string) => Promise<{ crop: 'maize' | 'beans'; worst: string }[] | undefined>;
  followUps: PhoneFollowUp;
  saveSettings(
    userId: number,
    body: { district?: string; sms_alerts?: boolean; voice_warnings?: boolean },
  ): Promise<unknown>;
  /** Lifts a STOP: the SMS consent given again, through the channel it was given on. */
  resumeSms(userId: number, channel: 'ussd' | 'sms', at: Date): Promise<unknown>;
  registerFromPhone(
    input: PhoneFarmerInput,
    consent: { sms: boolean; training: boolean },
  ): Promise<{ id: number } | null>;
  /** The farmer's fields by number, made and dated from the menu (docs/decisions/0078). */
  fields: Pick<FieldsService, 'listFor' | 'byNumber' | 'nextNumber' | 'create' | 'update'>;
  /** A walk counted on a basic phone. */
  walks: Pick<WalksService, 'record'>;
  /** The try-out screen's sandbox: registering saves nothing, and the end says so. */
  tryOut?: boolean;
  /** Asks the voice gateway to call the number with its last result (modules/voice); unset: not offered. */
  callWithResult?: (phone: string) => Promise<'calling' | 'wait' | 'failed'>;
}

/** A farmer's field as the menu and the SMS keywords read it (the fields service's row). */
export type PhoneField = Awaited<ReturnType<FieldsService['listFor']>>[number];

/** One request's facts: who dials (by number only), in which language, and what the menu may use. */
export interface MenuCtx {
  phone: string;
  user: PhoneUser | null;
  lang: Language;
  now: Date;
  /** The code farmers dial, and the terms page, as the texts name them. */
  code: string;
  termsUrl: string;
  uses: MenuUses;
  /** Runs the session's action at most once (a replayed request gets the first reply); unset: runs it. */
  once?: (act: () => Promise<string>) => Promise<string>;
}

/** What a screen carries forward: answers given on the way (language, name, district search, …). */
export interface Data {
  lang?: Language;
  name?: string;
  country?: 'UG' | 'KE';
  q?: string;
  page?: number;
  purpose?: 'register' | 'settings' | 'rust';
  district?: string;
  crops?: string[];
  /** The registering farmer's answers to the SMS and photo-training questions. */
  sms?: boolean;
  training?: boolean;
  reminderId?: number;
  /** A field's number (the one chosen to walk), and a new field's name and crop. */
  fieldNo?: number;
  fieldName?: string;
  fieldCrop?: 'maize' | 'beans' | 'other';
  /** The planting date said on the way (a new field, or a walked field that had none), and what it is for. */
  plantedOn?: string | null;
  plantedFor?: 'add' | 'walk';
  /** The plants looked at on a walk. */
  looked?: number;
}

export type ScreenId =
  | 'language'
  | 'guest'
  | 'terms'
  | 'name'
  | 'country'
  | 'letters'
  | 'pick'
  | 'crops'
  | 'consentSms'
  | 'consentPhotos'
  | 'home'
  | 'rust'
  | 'rustTodo'
  | 'alerts'
  | 'bookings'
  | 'callback'
  | 'last'
  | 'lastTodo'
  | 'follow'
  | 'settings'
  | 'setLanguage'
  | 'fields'
  | 'fieldName'
  | 'fieldCrop'
  | 'planted'
  | 'plantedWeeks'
  | 'plantedMonth'
  | 'walkLooked'
  | 'walkRust';

/** A screen's text; `root` screens (first screens) show no "0 Back 00 Home" line. */
export interface Shown {
  text: string;
  root?: boolean;
}

/** What an answer leads to: another screen, the same screen with a hint, an action, or the end. */
export type Next =
  | { to: ScreenId; data?: Data }
  | { hint: MessageKey; params?: Params }
  | { act: () => Promise<string> }
  | { end: string };

export interface Screen {
  show(c: MenuCtx, d: Data): Shown | Promise<Shown>;
  answer(input: string, c: MenuCtx, d: Data): Next | Promise<Next>;
  /** "0" is an answer here (a count of none), not "back": the screen offers "00 Home" only. */
  takesZero?: boolean;
}

/** The answer as an option number from 1 to n, or null. */
export function choice(input: string, n: number): number | null {
  if (!/^\d{1,2}$/.test(input)) return null;
  const k = Number(input);
  return k >= 1 && k <= n ? k : null;
}

export const tr = (c: MenuCtx, key: MessageKey, params?: Params) => t(c.lang, key, params);
export const badNumber: Next = { hint: 'ussd.hint.number' };

interface State {
  screen: ScreenId;
  data: Data;
}

/**
 * The menu as a pure state machine (docs/decisions/0051): the gateway sends every answer of the session
 * so far (`text`, joined by `*`); the screen is found by replaying them from the first screen. "0" goes
 * back (unless the screen takes 0 as a count), "00" home; an answer a screen refuses keeps it, with one
 * line saying what to type. Actions (which change something) run only for the newest answer and always
 * end the session, so a replay never repeats one.
 */
export async function runMenu(
  screens: Record<ScreenId, Screen>,
  answers: string[],
  base: Omit<MenuCtx, 'lang'>,
): Promise<{ text: string; end: boolean }> {
  const start: State = { screen: base.user ? 'home' : 'language', data: {} };
  const ctx = (s: State): MenuCtx => ({ ...base, lang: base.user?.language ?? s.data.lang ?? 'en' });
  let stack: State[] = [];
  let current = start;
  let hint: string | null = null;
  for (const [i, raw] of answers.entries()) {
    const input = raw.trim();
    hint = null;
    if (input === '00') {
      stack = [];
      current = start;
      continue;
    }
    if (input === '0' && !screens[current.screen].takesZero) {
      current = stack.pop() ?? start;
      continue;
    }
    const c = ctx(current);
    const next = await screens[current.screen].answer(input, c, current.data);
    if ('hint' in next) {
      hint = t(c.lang, next.hint, next.params);
      continue;
    }
    if ('end' in next) return { text: next.end, end: true };
    if ('act' in next) {
      // An older answer that led to an action means the gateway replayed a finished session.
      if (i !== answers.length - 1) return { text: tr(c, 'ussd.ended', { code: c.code }), end: true };
      return { text: await (base.once ? base.once(next.act) : next.act()), end: true };
    }
    stack.push(current);
    current = { screen: next.to, data: { ...current.data, ...next.data } };
  }
  const c = ctx(current);
  const shown = await screens[current.screen].show(c, current.data);
  const footer = shown.root ? null : tr(c, screens[current.screen].takesZero ? 'ussd.footerHome' : 'ussd.footer');
  const lines = [hint, shown.text, footer].filter((l): l is string => Boolean(l));
  return { text: lines.join('\n'), end: false };
}
