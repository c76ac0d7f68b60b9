import { describe, expect, it } from 'vitest';
import { districts, languages, SMALL_COUNT_WORDS, USSD_SCREEN_MAX, type Walk, WALK_MAX_PLANTS } from '@kutu/contract';
import { FIELD_RULES, walkComparisons } from '@kutu/contract/field-rules';
import { fieldActions, plantingDay } from './field-actions.ts';
import { type MenuCtx, type MenuUses, type PhoneField, runMenu } from './menu.ts';
import { fieldPages, listOptions } from './screens-fields.ts';
import { MORE, matches, PICK_PAGE } from './screens-guest.ts';
import { screens } from './screens-menu.ts';
import type { PhoneUser } from './basic-phone.repo.ts';

/*
 * Every screen of the menu in every language, measured with the longest values it can show: the
 * longest district name, a 40-letter name and expert name, both crops on alert. The menu is a pure
 * state machine, so this walks it without a database; basic-phone.test.ts drives the real routes.
 */
const longest = [...districts].sort((a, b) => b.name.length - a.name.length)[0];
const name40 = 'Nakato Namukasa Ssebunya Kiggundu Nalwoga';
/** A farmer's fields at their longest: 40-character names, numbers of three digits, one number retired. */
const fieldRow = (number: number, crop: PhoneField['crop'] = 'other'): PhoneField =>
  ({
    id: number,
    userId: 1,
    number,
    name: `Field by the swamp near the school ${String(number).padStart(3, '0')}x`.slice(0, 40),
    crop,
    plantedOn: null,
    district: 'UG-102',
  }) as PhoneField;
const farmerFields = Array.from({ length: 12 }, (_, i) =>
  fieldRow(i < 3 ? i + 1 : 95 + i, (['maize', 'beans', 'other'] as const)[i % 3]),
);
/** A walk's answer at its longest: 1000 plants, a comparison with 1000 plants, each step and age in turn. */
const walkOf = (over: Partial<Walk>): Walk =>
  ({
    id: 1,
    field_id: 1,
    crop: 'beans',
    plants_looked: WALK_MAX_PLANTS,
    plants_rust: WALK_MAX_PLANTS,
    weeks_since_planting: 52,
    growth_stage: null,
    stage_said: false,
    advice: { steps: ['walk_again'] },
    compared: null,
    ...over,
  }) as Walk;
let walkAnswered = walkOf({});
/** The steps an answer can start with: each rule's first. */
const firstSteps = [...new Set(Object.values(FIELD_RULES).map((r) => r.steps[0]))];
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
      confirmed: { count: null, below_min: true },
      trend: 'falling' as const,
      alert: true,
    })),
  rustWeather: async () => [
    { crop: 'maize', worst: 'high' },
    { crop: 'beans', worst: 'high' },
  ],
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
  fields: {
    listFor: async () => farmerFields,
    byNumber: async (_user: number, n: number) => farmerFields.find((f) => f.number === n),
    nextNumber: async () => 100,
    create: async () => ({ ...fieldRow(100), name: 'n'.repeat(40) }),
    update: async () => undefined,
  },
  walks: { record: async () => ({ walk: walkAnswered, created: true }) },
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
  voiceWarnings: false,
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
      // The try-out screen's end (a sandbox that saves nothing) says so instead of welcoming.
      const tryOut = { ...base(null), uses: { ...uses, tryOut: true } };
      await measure(null, [...toLongest, '3', sms, '1'], tryOut);
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
    // Calls with rust warnings: chosen (the district's longest name and the number in the reply), not chosen,
    // chosen while SMS alerts are off (the reply says how to turn them on).
    await measure(known, ['2', '2']);
    await measure({ ...known, voiceWarnings: true }, ['2']);
    await measure({ ...known, voiceWarnings: true }, ['2', '2']);
    await measure({ ...known, smsAlerts: false }, ['2', '2']);
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

  it.each(languages)('my fields, a new field and a walk in %s', async (language) => {
    const known = member(language, longest.code);
    const { add, more } = listOptions(farmerFields);
    const pages = fieldPages({ ...base(known), lang: language }, farmerFields).length;
    expect(pages).toBeGreaterThan(1);
    for (let page = 1; page <= pages; page++) await measure(known, ['8', ...Array(page - 1).fill(more)]);
    await measure({ ...known, district: null }, ['8', add]);
    const named = ['8', add, '1'];
    for (const path of [
      ['8', add],
      named,
      ['8', add, name40],
      [...named, '3'],
      [...named, '3', '1'],
      [...named, '3', '2'],
      [...named, '3', '1', '52'],
      [...named, '3', '3'],
    ])
      await measure(known, path);
    // A field without a planting date asks for one, then the counts.
    for (const path of [
      ['8', '1'],
      ['8', '1', '1'],
      ['8', '1', '3'],
      ['8', '1', '3', '1000'],
    ])
      await measure(known, path);
    // The answer with every first step of a rule, age and comparison, at the longest counts (no stage is
    // said on a basic phone: the planting date gives it).
    const ctx = { ...base(known), lang: language };
    const ages: Partial<Walk>[] = [{ weeks_since_planting: 52 }, { weeks_since_planting: null }, { crop: 'other' }];
    let longestAnswer = '';
    for (const step of firstSteps)
      for (const outcome of [...walkComparisons, null])
        for (const age of ages) {
          walkAnswered = walkOf({
            ...age,
            advice: { steps: [step] } as Walk['advice'],
            compared: outcome && {
              walk_id: 1,
              walked_at: '2026-12-30T12:00:00Z',
              plants_looked: WALK_MAX_PLANTS,
              plants_rust: WALK_MAX_PLANTS,
              outcome,
            },
          });
          const text = await fieldActions.walk(ctx, { fieldNo: 1, looked: WALK_MAX_PLANTS }, WALK_MAX_PLANTS);
          expect(text).toContain(String(WALK_MAX_PLANTS));
          if (text.length > longestAnswer.length) longestAnswer = text;
        }
    expect(longestAnswer.length, longestAnswer).toBeLessThanOrEqual(USSD_SCREEN_MAX);
  });
});

describe('fields on a basic phone', () => {
  const known = member('en', longest.code);

  it('numbers "More" and "Add a field" with numbers no field of the farmer has', () => {
    expect(listOptions([{ number: 1 }, { number: 2 }])).toEqual({ add: '99', more: '98' });
    expect(listOptions([{ number: 99 }, { number: 97 }])).toEqual({ add: '98', more: '96' });
  });

  it('takes 0 as the count of plants with rust, not as "back", and offers home only there', async () => {
    const walk = await runMenu(screens, ['8', '1', '3', '50'], base(known));
    expect(walk.text).toContain('How many of the 50 plants had rust');
    expect(walk.text.split('\n').at(-1)).toBe('00 Home');
    walkAnswered = walkOf({ plants_looked: 50, plants_rust: 0, advice: { steps: ['walk_again'] } as Walk['advice'] });
    const done = await runMenu(screens, ['8', '1', '3', '50', '0'], base(known));
    expect(done.end).toBe(true);
    expect(done.text).toContain('Rust on 0 of 50 plants');
    // Elsewhere 0 still goes back: from the count of plants to the planting question.
    const back = await runMenu(screens, ['8', '1', '3', '0'], base(known));
    expect(back.text).toContain('When was');
  });

  it('refuses more plants with rust than were looked at, and a count over the most a walk holds', async () => {
    const over = await runMenu(screens, ['8', '1', '3', '50', '51'], base(known));
    expect(over.end).toBe(false);
    expect(over.text.split('\n')[0]).toBe('Type a number from 0 to 50.');
    const many = await runMenu(screens, ['8', '1', '3', String(WALK_MAX_PLANTS + 1)], base(known));
    expect(many.text.split('\n')[0]).toBe(`Type a number from 1 to ${WALK_MAX_PLANTS}.`);
  });

  it('works out the planting date from weeks or a month, never after today (East Africa Time)', () => {
    const now = new Date('2026-03-10T22:00:00Z'); // 11 March in Kampala
    expect(plantingDay(now, { weeks: 2 })).toBe('2026-02-25');
    expect(plantingDay(now, { month: 1 })).toBe('2026-01-15');
    expect(plantingDay(now, { month: 3 })).toBe('2026-03-11');
    expect(plantingDay(now, { month: 4 })).toBe('2025-04-15');
  });
});

describe('a count under the privacy minimum', () => {
  it.each([
    ['en', `Maize: 0 to ${SMALL_COUNT_WORDS.max}, falling`],
    ['sw', `Mahindi: 0 hadi ${SMALL_COUNT_WORDS.max}`],
    ['lg', `Kasooli: 0-${SMALL_COUNT_WORDS.max}, ekendeera`],
  ] as const)(
    'reads "0 to 2" (below the minimum) in %s, since none and one or two look alike (decision 0052)',
    async (language, line) => {
      const { text } = await runMenu(screens, ['1'], base(member(language, longest.code)));
      expect(text).toContain(line);
      expect(text).not.toMatch(/under|chini ya|wansi wa/i);
    },
  );
});

describe('a week of rust weather (decision 0100)', () => {
  it('comes first in "what to do" when the district turns high, and not otherwise', async () => {
    const { text } = await runMenu(screens, ['1', '1'], base(member('en', longest.code)));
    expect(text).toMatch(/^Rust may infect this week: Maize, Beans\. Walk your fields/);
    const calm = { ...base(member('en', longest.code)) };
    calm.uses = { ...uses, rustWeather: async () => [{ crop: 'maize', worst: 'moderate' }] };
    expect((await runMenu(screens, ['1', '1'], calm)).text).toMatch(/^Check leaves each week/);
  });

  it('says the weather is unknown, never as if there were no risk, when no crop has a known week', async () => {
    const unknown = { ...base(member('en', longest.code)) };
    unknown.uses = {
      ...uses,
      rustWeather: async () => [
        { crop: 'maize', worst: 'unknown' },
        { crop: 'beans', worst: 'unknown' },
      ],
    };
    expect((await runMenu(screens, ['1', '1'], unknown)).text).toMatch(
      /^No weather forecast this week: Kutu cannot tell if rust weather comes\./,
    );
    const none = { ...base(member('en', longest.code)) };
    none.uses = { ...uses, rustWeather: undefined };
    expect((await runMenu(screens, ['1', '1'], none)).text).toMatch(/^No weather forecast this week/);
  });
});
