import { type District, districts, languages } from '@kutu/contract';
import { actions } from './actions.ts';
import { badNumber, choice, type Data, type MenuCtx, type Next, type Screen, type ScreenId, tr } from './menu.ts';

/** Districts or counties listed per screen when choosing one (the screen's 182 characters decide). */
export const PICK_PAGE = 5;
/** The option that shows the next page of names. */
export const MORE = '9';

const plain = (s: string) => s.toLowerCase().replace(/[^a-z]/g, '');

/** The shipped districts (Uganda) or counties (Kenya) whose name starts with the letters typed. */
export function matches(country: 'UG' | 'KE', q: string): District[] {
  const start = plain(q);
  return districts
    .filter((d) => d.country === country && plain(d.name).startsWith(start))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** Where a chosen district leads: the crops question when registering, else the change itself. */
function districtChosen(code: string, c: MenuCtx, d: Data): Next {
  if (d.purpose === 'register') return { to: 'crops', data: { district: code } };
  return { act: () => actions.setDistrict(c, code) };
}

/** First use by a number without an account: language, then registration (decision 0024's account). */
export const guestScreens: Pick<
  Record<ScreenId, Screen>,
  'language' | 'guest' | 'terms' | 'name' | 'country' | 'letters' | 'pick' | 'crops' | 'consentSms' | 'consentPhotos'
> = {
  language: {
    show: (c) => ({ text: tr(c, 'ussd.chooseLanguage'), root: true }),
    answer: (input) => {
      const k = choice(input, languages.length);
      return k ? { to: 'guest', data: { lang: languages[k - 1] } } : badNumber;
    },
  },
  guest: {
    show: (c) => ({ text: tr(c, 'ussd.guest') }),
    answer: (input, c) => {
      const k = choice(input, 2);
      if (k === 1) return { to: 'terms', data: { purpose: 'register' } };
      if (k === 2) return { end: tr(c, 'ussd.bye', { code: c.code }) };
      return badNumber;
    },
  },
  terms: {
    show: (c) => ({ text: tr(c, 'ussd.terms', { url: c.termsUrl }) }),
    answer: (input, c) => {
      const k = choice(input, 2);
      if (k === 1) return { to: 'name' };
      if (k === 2) return { end: tr(c, 'ussd.noAccount', { code: c.code }) };
      return badNumber;
    },
  },
  name: {
    show: (c) => ({ text: tr(c, 'ussd.name') }),
    answer: (input) => {
      const name = input.replace(/\s+/g, ' ');
      if (!/^[\p{L}][\p{L} .'-]{1,39}$/u.test(name)) return { hint: 'ussd.hint.name' };
      return { to: 'country', data: { name } };
    },
  },
  country: {
    show: (c) => ({ text: tr(c, 'ussd.country') }),
    answer: (input) => {
      const k = choice(input, 2);
      return k ? { to: 'letters', data: { country: k === 1 ? 'UG' : 'KE' } } : badNumber;
    },
  },
  letters: {
    show: (c, d) => ({ text: tr(c, d.country === 'KE' ? 'ussd.letters.KE' : 'ussd.letters.UG') }),
    answer: (input, _c, d) => {
      if (!/^[A-Za-z][A-Za-z' -]{0,29}$/.test(input)) return { hint: 'ussd.hint.letters' };
      if (matches(d.country ?? 'UG', input).length === 0) return { hint: 'ussd.hint.noMatch', params: { q: input } };
      return { to: 'pick', data: { q: input, page: 1 } };
    },
  },
  pick: {
    show: (c, d) => {
      const all = matches(d.country ?? 'UG', d.q ?? '');
      const pages = Math.max(1, Math.ceil(all.length / PICK_PAGE));
      const page = Math.min(d.page ?? 1, pages);
      const shown = all.slice((page - 1) * PICK_PAGE, page * PICK_PAGE);
      const lines = [
        tr(c, 'ussd.pick', { page, pages }),
        ...shown.map((x, i) => `${i + 1} ${x.name}`),
        ...(page < pages ? [tr(c, 'ussd.more', { n: MORE })] : []),
      ];
      return { text: lines.join('\n') };
    },
    answer: (input, c, d) => {
      const all = matches(d.country ?? 'UG', d.q ?? '');
      const page = d.page ?? 1;
      if (input === MORE && page * PICK_PAGE < all.length) return { to: 'pick', data: { page: page + 1 } };
      const shown = all.slice((page - 1) * PICK_PAGE, page * PICK_PAGE);
      const k = choice(input, shown.length);
      return k ? districtChosen(shown[k - 1].code, c, d) : badNumber;
    },
  },
  crops: {
    show: (c) => ({ text: tr(c, 'ussd.crops') }),
    answer: (input) => {
      const k = choice(input, 3);
      if (!k) return badNumber;
      const crops = k === 1 ? ['maize'] : k === 2 ? ['beans'] : ['maize', 'beans'];
      return { to: 'consentSms', data: { crops } };
    },
  },
  // The two free consents (the terms screen was the service's): each recorded with the account.
  consentSms: {
    show: (c) => ({ text: tr(c, 'ussd.consentSms') }),
    answer: (input) => {
      const k = choice(input, 2);
      return k ? { to: 'consentPhotos', data: { sms: k === 1 } } : badNumber;
    },
  },
  consentPhotos: {
    show: (c) => ({ text: tr(c, 'ussd.consentPhotos') }),
    answer: (input, c, d) => {
      const k = choice(input, 2);
      return k ? { act: () => actions.register(c, { ...d, training: k === 1 }) } : badNumber;
    },
  },
};
