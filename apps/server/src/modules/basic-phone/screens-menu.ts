import {
  adviceTopicFor,
  EAST_AFRICA_TIME_ZONE,
  nativeNames,
  languages,
  type RustClass,
  SMALL_COUNT_WORDS,
  USSD_HOME,
  ussdMenuNumber,
} from '@kutu/contract';
import type { MessageKey } from '../../i18n/i18n.ts';
import { districtByCode } from '@kutu/contract';
import { actions } from './actions.ts';
import { badNumber, choice, type MenuCtx, type Screen, type ScreenId, tr } from './menu.ts';
import { fieldScreens } from './screens-fields.ts';
import { guestScreens } from './screens-guest.ts';

/** Day (and time) as short as a phone screen needs, in East Africa Time: 1/12/2026 09:00. */
const dayFormat = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'numeric',
  year: 'numeric',
  timeZone: EAST_AFRICA_TIME_ZONE,
});
const timeFormat = new Intl.DateTimeFormat('en-GB', {
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
  timeZone: EAST_AFRICA_TIME_ZONE,
});
export const shortDay = (at: Date) => dayFormat.format(at);

const districtName = (c: MenuCtx) =>
  (c.user?.district && districtByCode(c.user.district)?.name) || tr(c, 'ussd.yourDistrict');

type LastDiagnosis = NonNullable<Awaited<ReturnType<MenuCtx['uses']['repo']['lastDiagnosis']>>>;

/** The advice topic of a farmer's last diagnosis: the expert's verdict when there is one (the menu, the voice call). */
export function topicOfLast(last: LastDiagnosis) {
  const verdict = last.verdict && last.verdict !== 'cannot_tell' ? last.verdict : null;
  const topic = verdict
    ? verdict
    : adviceTopicFor({
        outcome: last.outcome,
        rustClass: last.rustClass as RustClass | null,
        confidence: last.confidence,
        unsure: last.unsure,
      });
  return { last, topic, byExpert: Boolean(verdict) };
}

async function lastTopic(c: MenuCtx) {
  const last = c.user ? await c.uses.repo.lastDiagnosis(c.user.id) : undefined;
  return last ? topicOfLast(last) : undefined;
}

const only0: Screen['answer'] = () => badNumber;

/** The home menu, in the order its options are numbered (the contract's): the text and the answer are both built from it. */
const HOME = USSD_HOME;
/** The number that asks for a call back, for texts that point to it ("ask an expert (menu 4)"). */
const callMenu = ussdMenuNumber('callback');

/**
 * The crops whose rust risk in the caller's district is high this week, in words ('' when none), and whether
 * the week's weather is unknown for every crop (no forecast, or one that failed its checks): then the screen
 * says so, so that "unknown" never reads as "no risk".
 */
async function rustWeek(c: MenuCtx): Promise<{ high: string; unknown: boolean }> {
  const weather = c.user?.district ? ((await c.uses.rustWeather?.(c.user.district)) ?? []) : [];
  return {
    high: weather
      .filter((w) => w.worst === 'high')
      .map((w) => tr(c, `ussd.crop.${w.crop}`))
      .join(', '),
    unknown: weather.every((w) => w.worst === 'unknown'),
  };
}

/** The menu of a number with an account: read-only screens, and actions on the account's own settings. */
const menuScreens: Omit<Record<ScreenId, Screen>, keyof typeof guestScreens | keyof typeof fieldScreens> = {
  home: {
    show: (c) => ({
      text: [tr(c, 'ussd.home'), ...HOME.map((to, i) => `${i + 1} ${tr(c, `ussd.homeItem.${to}`)}`)].join('\n'),
      root: true,
    }),
    answer: (input) => {
      const to = HOME[(choice(input, HOME.length) ?? 0) - 1];
      return to ? { to } : badNumber;
    },
  },
  rust: {
    async show(c) {
      if (!c.user?.district) return { text: tr(c, 'ussd.noDistrict') };
      const crops = await c.uses.districtNow(c.user.district, c.now);
      const lines = crops.map((x) => {
        const count = x.confirmed.below_min ? tr(c, 'ussd.rust.fewer', SMALL_COUNT_WORDS) : String(x.confirmed.count);
        const line = tr(c, 'ussd.rust.line', {
          crop: tr(c, `ussd.crop.${x.crop}`),
          count,
          trend: tr(c, `ussd.rust.${x.trend}`),
        });
        return x.alert ? `${line}, ${tr(c, 'ussd.rust.alert')}` : line;
      });
      return { text: tr(c, 'ussd.rust.view', { district: districtName(c), lines: lines.join('\n') }) };
    },
    answer: (input, c) => {
      if (choice(input, 1) !== 1) return badNumber;
      return c.user?.district ? { to: 'rustTodo' } : { to: 'country', data: { purpose: 'rust' } };
    },
  },
  // A week of rust weather in the caller's district (docs/decisions/0100) comes first in "what to do".
  rustTodo: {
    async show(c) {
      const week = await rustWeek(c);
      if (week.high) return { text: tr(c, 'ussd.rust.todoWeather', { crops: week.high, callMenu }) };
      return { text: tr(c, week.unknown ? 'ussd.rust.todoUnknown' : 'ussd.rust.todo', { callMenu }) };
    },
    answer: only0,
  },
  // SMS alerts on or off; and, where Kutu places calls, a call with each rust advisory (docs/decisions/0123).
  alerts: {
    show: (c) => {
      const sms = tr(c, c.user?.smsAlerts && !c.user.smsStoppedAt ? 'ussd.alerts.on' : 'ussd.alerts.off', {
        district: districtName(c),
      });
      if (!c.uses.callWithResult) return { text: sms };
      return { text: `${sms}\n${tr(c, c.user?.voiceWarnings ? 'ussd.alerts.callsOn' : 'ussd.alerts.callsOff')}` };
    },
    answer: (input, c) => {
      const picked = choice(input, c.uses.callWithResult ? 2 : 1);
      if (picked === 2) return { act: () => actions.setVoiceWarnings(c, !c.user?.voiceWarnings, districtName(c)) };
      if (picked !== 1) return badNumber;
      const on = !(c.user?.smsAlerts && !c.user.smsStoppedAt);
      return { act: () => actions.setAlerts(c, on, districtName(c)) };
    },
  },
  bookings: {
    async show(c) {
      const next = c.user ? await c.uses.repo.nextBooking(c.user.id, c.now) : undefined;
      if (!next) return { text: tr(c, 'ussd.bookings.none') };
      return {
        text: tr(c, 'ussd.bookings.next', {
          date: `${shortDay(next.at)} ${timeFormat.format(next.at)}`,
          expert: next.expert,
          state: tr(c, next.status === 'approved' ? 'ussd.bookings.approved' : 'ussd.bookings.pending'),
        }),
      };
    },
    answer: only0,
  },
  callback: {
    show: (c) => ({
      text: tr(c, 'ussd.callback.ask', { phone: c.phone, language: nativeNames[c.lang] }),
    }),
    answer: (input, c) => (choice(input, 1) === 1 ? { act: () => actions.callMe(c, 'ussd') } : badNumber),
  },
  last: {
    async show(c) {
      const found = await lastTopic(c);
      if (!found) return { text: tr(c, 'ussd.last.none') };
      const result = tr(c, `ussd.result.${found.topic}` as MessageKey);
      const call = c.uses.callWithResult ? `\n${tr(c, 'ussd.last.hear')}` : '';
      return {
        text: `${tr(c, 'ussd.last.view', {
          date: shortDay(found.last.createdAt),
          crop:
            found.last.crop && found.last.crop !== 'other'
              ? tr(c, `ussd.crop.${found.last.crop}`)
              : tr(c, 'ussd.last.anyCrop'),
          result: found.byExpert ? tr(c, 'ussd.last.expert', { result }) : result,
        })}${call}`,
      };
    },
    answer: async (input, c) => {
      const k = choice(input, c.uses.callWithResult ? 2 : 1);
      if (!k || !(await lastTopic(c))) return badNumber;
      return k === 1 ? { to: 'lastTodo' } : { act: () => actions.callWithResult(c) };
    },
  },
  lastTodo: {
    async show(c) {
      const found = await lastTopic(c);
      // A leaf says rust, not how much of the field has it: rust asks for a walk (My fields), whose counts
      // say whether a spray can pay (docs/decisions/0078).
      const text = found
        ? tr(c, `ussd.advice.${found.topic}` as MessageKey, { menu: ussdMenuNumber('fields') })
        : tr(c, 'ussd.last.none');
      return { text };
    },
    answer: only0,
  },
  follow: {
    async show(c) {
      const open = c.user ? await c.uses.followUps.openOf(c.user.id) : undefined;
      if (!open) return { text: tr(c, 'ussd.follow.none') };
      // Not before the day Kutu said it would ask: the treatment needs the time to work.
      if (open.dueAt > c.now) return { text: tr(c, 'ussd.follow.notYet', { date: shortDay(open.dueAt) }) };
      const field = open.crop === 'maize' || open.crop === 'beans' ? open.crop : 'any';
      return {
        text: tr(c, 'ussd.follow.ask', {
          date: shortDay(open.createdAt),
          field: tr(c, `followUp.field.${field}`),
        }),
      };
    },
    async answer(input, c) {
      const open = c.user ? await c.uses.followUps.openOf(c.user.id) : undefined;
      const k = choice(input, 3);
      if (!open || !k || open.dueAt > c.now) return badNumber;
      const said = (['better', 'same', 'worse'] as const)[k - 1];
      return { act: () => actions.followUp(c, open.id, said) };
    },
  },
  settings: {
    show: (c) => ({ text: tr(c, 'ussd.settings') }),
    answer: (input) => {
      const k = choice(input, 2);
      if (k === 1) return { to: 'setLanguage' };
      if (k === 2) return { to: 'country', data: { purpose: 'settings' } };
      return badNumber;
    },
  },
  setLanguage: {
    show: (c) => ({ text: tr(c, 'ussd.chooseLanguage') }),
    answer: (input, c) => {
      // Key 1 for the first of the contract's languages, and so on (ussd.chooseLanguage lists them so).
      const k = choice(input, languages.length);
      const language = languages[(k ?? 0) - 1];
      return language ? { act: () => actions.setLanguage(c, language) } : badNumber;
    },
  },
};

export const screens: Record<ScreenId, Screen> = { ...guestScreens, ...menuScreens, ...fieldScreens };
