import { describe, expect, it } from 'vitest';
import { districts, languages, USSD_SCREEN_MAX } from '@kutu/contract';
import { type MenuCtx, type MenuUses, runMenu } from './menu.ts';
import { MORE, matches, PICK_PAGE } from './screens-guest.ts';
import { screens } from './screens-menu.ts';
import type { PhoneUser } from './ussd.repo.ts';

/*
 * Every screen of the menu in every language, measured with the longest values it can show: the
 * longest district name, a 40-letter name and expert name, both crops on alert. The menu is a pure
 * state machine, so this walks it without a database; ussd.test.ts drives the real routes.
 */
const longest = [...districts].sort((a, b) => b.name.length - a.name.length)[0];
const name40 = 'Nakato Namukasa Ssebunya Kiggundu Nalwoga';
const uses = {
  repo: {
    lastDiagnosis: async () => ({
      id: 1,
      outcome: 'diagnosis',
      rustClass: 'other_disease',
      unsure: false,
      confidence: 0.9,
      crop: 'beans',
      createdAt: new Date('2026-12-31T20:00:00Z'),
      verdict: 'other_disease',
    }),
    nextBooking: async () => ({ status: 'pending', at: new Date('2026-12-31T20:00:00Z'), expert: 'x'.repeat(40) }),
    openCallbackOf: async () => undefined,
    addCallback: async () => undefined,
    setLanguage: async () => undefined,
  },
  districtNow: async () =>
    (['maize', 'beans'] as const).map((crop) => ({
      crop,
      confirmed: { count: null, below_min: true, fewer_than_3: true },
      trend: 'falling' as const,
      alert: true,
    })),
  followUps: {
    openOf: async () => ({
      id: 1,
      crop: 'beans',
      createdAt: new Date('2026-12-31T20:00:00Z'),
      dueAt: new Date('2026-11-30T20:00:00Z'),
    }),
    answer: async () => 'done',
  },
  saveSettings: async () => undefined,
  resumeSms: async () => undefined,
  registerFromPhone: async () => ({ id: 1 }),
  callWithResult: async () => 'calling',
} as unknown as MenuUses;

const base = (user: PhoneUser | null): Omit<MenuCtx, 'lang'> => ({
  phone: '+256772000999',
  user,
  now: new Date('2026-12-01T08:00:00Z'),
  code: '*384*123*45#',
  termsUrl: 'kutu.example.org/terms',
  uses,
});
const member = (language: (typeof languages)[number], district: string | null): PhoneUser => ({
  id: 1,
  username: name40,
  role: 'farmer',
  phone: '+256772000999',
  language,
  district,
  smsAlerts: true,
  smsStoppedAt: null,
});

async function measure(user: PhoneUser | null, answers: string[], ctx = base(user)) {
  // Each screen as shown, and again after a wrong answer (its hint line on top).
  for (const path of [answers, [...answers, 'zz']]) {
    const { text } = await runMenu(screens, path, ctx);
    expect(text.length, `${path.join('*')}\n${text}`).toBeLessThanOrEqual(USSD_SCREEN_MAX);
  }
}

describe('every USSD screen fits 182 characters', () => {
  it.each([1, 2, 3])('first use and registration, language %i', async (l) => {
    const reg = [String(l), '1', '1', name40];
    for (const path of [
      [],
      [String(l)],
      [String(l), '2'],
      [String(l), '1'],
      [String(l), '1', '2'],
      reg.slice(0, 3),
      reg,
    ]) {
      await measure(null, path);
    }
    await measure(null, [...reg.slice(0, 3), '1']); // a name too short: its hint
    for (const [country, option] of [
      ['UG', '1'],
      ['KE', '2'],
    ] as const) {
      await measure(null, [...reg, option]);
      await measure(null, [...reg, option, 'Qx']); // no district starts so
      for (const letter of 'ABCDEGHIJKLMNOPRSTUVWYZ') {
        const found = matches(country, letter);
        if (!found.length) continue;
        const pages = Math.ceil(found.length / PICK_PAGE);
        for (let page = 1; page <= pages; page++) {
          await measure(null, [...reg, option, letter, ...Array(page - 1).fill(MORE)]);
        }
      }
    }
    const district = matches(longest.country, longest.name)[0];
    expect(district.code).toBe(longest.code);
    const toLongest = [...reg, longest.country === 'UG' ? '1' : '2', longest.name, '1'];
    await measure(null, toLongest);
    await measure(null, [...toLongest, '3']);
    // The SMS and photo-training questions, then the welcome with SMS on and off.
    for (const sms of ['1', '2']) {
      await measure(null, [...toLongest, '3', sms]);
      await measure(null, [...toLongest, '3', sms, '1']);
    }
  });

  it.each(languages)('the menu of a known number in %s', async (language) => {
    const known = member(language, longest.code);
    const paths = [
      [],
      ['1'],
      ['1', '1'],
      ['2'],
      ['2', '1'],
      ['3'],
      ['4'],
      ['4', '1'],
      ['5'],
      ['5', '1'],
      ['5', '2'],
      ['6'],
      ['6', '1'],
      ['6', '2'],
      ['6', '3'],
      ['7'],
      ['7', '1'],
      ['7', '1', '3'],
      ['7', '2'],
      ['7', '2', '1', 'K', '1'],
    ];
    for (const path of paths) await measure(known, path);
    await measure({ ...known, smsAlerts: false }, ['2']);
    await measure({ ...known, smsAlerts: false }, ['2', '1']);
    // Alerts on after STOP: the reply also says every SMS is back.
    await measure({ ...known, smsStoppedAt: new Date('2026-11-30T08:00:00Z') }, ['2', '1']);
    await measure(member(language, null), ['1']);
    await measure(member(language, null), ['1', '1']);
    // A follow-up not due yet (a plant clinic's, on the day of the visit).
    const early = {
      ...uses.followUps,
      openOf: async () => ({ id: 1, crop: 'beans', dueAt: new Date('2026-12-31T20:00:00Z') }),
    };
    await measure(known, ['6'], { ...base(known), uses: { ...uses, followUps: early } as unknown as MenuUses });
    // Kutu called the number a few minutes ago: not again yet.
    const called = { ...base(known), uses: { ...uses, callWithResult: async () => 'wait' } as unknown as MenuUses };
    await measure(known, ['5', '2'], called);
  });
});

describe('a count under the privacy minimum', () => {
  it.each([
    ['en', 'Maize: 0 to 2, falling'],
    ['sw', 'Mahindi: 0 hadi 2'],
    ['lg', 'Kasooli: 0-2, ekendeera'],
  ] as const)('reads "0 to 2" in %s, since none and one or two look alike (decision 0052)', async (language, line) => {
    const { text } = await runMenu(screens, ['1'], base(member(language, longest.code)));
    expect(text).toContain(line);
    expect(text).not.toMatch(/under|chini ya|wansi wa/i);
  });
});
