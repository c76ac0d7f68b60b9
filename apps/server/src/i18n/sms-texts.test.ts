import { describe, expect, it } from 'vitest';
import {
  type AdviceTopic,
  districts,
  growthStages,
  type Language,
  languages,
  outbreakCrops,
  reviewVerdicts,
  shortLinks,
  type Walk,
  WALK_MAX_PLANTS,
} from '@kutu/contract';
import { FIELD_RULES, walkComparisons } from '@kutu/contract/field-rules';
import { MAX_SMS_PARTS } from '../lib/delivery-lease.ts';
import { isGsm7, plainSms, smsParts } from '../lib/sms-text.ts';
import { fieldList } from '../modules/basic-phone/sms-fields.ts';
import { walkAnswer } from '../modules/fields/walk-answer.ts';
import { type Message, message, type Params, render } from './i18n.ts';
import { type SmsKey, smsTexts } from './sms-texts.ts';

/**
 * Every SMS key rendered in every language with the longest values it is sent with: a 23-character
 * PUBLIC_URL, the longest district name, 40-character usernames, and the longest text a person may
 * write where one is part of the SMS (a place of 200 characters, a reason of 500, …).
 */
const site = 'https://app.kutu.africa';
const longest = (n: number) => 'Lorem ipsum dolor sit amet '.repeat(40).slice(0, n).trim();
const district = [...districts].sort((a, b) => b.name.length - a.name.length)[0].name;
const user = 'u'.repeat(40);
const phone = '+256700123456';
const when = new Date('2026-09-30T14:00:00Z');
const mode = (m: string) => message(`consultations.modes.${m}` as 'consultations.modes.phone');
const hows: Message[] = [
  mode('phone'),
  message('consultations.howAtPlace', { mode: mode('farm_visit'), place: longest(200) }),
  message('consultations.howVideo', { mode: mode('video'), url: `https://meet.example.org/${'x'.repeat(475)}` }),
];
const verdicts: Message[] = [
  ...(['maize', 'beans', 'any'] as const).map((c) =>
    message('notifications.verdictSeverity', {
      verdict: message(`notifications.smsRustNames.${c}`),
      band: message('notifications.severityBands.moderate'),
    }),
  ),
  ...reviewVerdicts.filter((v) => v !== 'common_rust').map((v) => message(`notifications.verdicts.${v}`)),
];
const crops = outbreakCrops.map((c) => message(`outbreak.crops.${c}`));
const weekdays = [0, 1, 2, 3, 4, 5, 6].map((n) => message(`dates.weekdays.${n}` as 'dates.weekdays.0'));
/** A verdict SMS: each verdict with the first step of its advice. */
const verdictTopics: AdviceTopic[][] = [
  ...verdicts.slice(0, 3).map(() => ['common_rust' as const]),
  ...reviewVerdicts
    .filter((v) => v !== 'common_rust')
    .map((v): AdviceTopic[] => (v === 'cannot_tell' ? ['unsure', 'not_leaf'] : [v])),
];
const verdictSms = (link: string): Params[] =>
  verdicts.flatMap((verdict, i) =>
    verdictTopics[i].map((topic) => ({ verdict, step: message(`notifications.smsFirstStep.${topic}`), link })),
  );
const fields = (['maize', 'beans', 'other'] as const).map((c) => message(`followUp.field.${c}`));
const each = <T>(values: T[], build: (v: T) => Params) => values.map(build);
/**
 * A walk at its longest: 1000 plants now and before, each rule's first step, every comparison, and each age
 * it can rest on (`ages`).
 */
const longestWalks = (ages: Partial<Walk>[]): Walk[] =>
  [...new Set(Object.values(FIELD_RULES).map((r) => r.steps[0]))].flatMap((step) =>
    [...walkComparisons, null].flatMap((outcome) =>
      ages.map(
        (age) =>
          ({
            crop: 'beans',
            plants_looked: WALK_MAX_PLANTS,
            plants_rust: WALK_MAX_PLANTS,
            stage_said: false,
            growth_stage: null,
            ...age,
            advice: { steps: [step] },
            compared: outcome && {
              walked_at: '2026-12-30T12:00:00Z',
              plants_looked: WALK_MAX_PLANTS,
              plants_rust: WALK_MAX_PLANTS,
              outcome,
            },
          }) as Walk,
      ),
    ),
  );
/** By SMS no stage is said: the planting date gives the age, or nothing does. */
const walkAnswers: Params[] = longestWalks([
  { weeks_since_planting: 52 },
  { weeks_since_planting: null },
  { crop: 'other' },
]).map((w) => ({ ...walkAnswer(w, { sms: true }) }));
/** At a plant clinic the expert says the stage. */
const clinicWalks = longestWalks(growthStages.map((g) => ({ stage_said: true, growth_stage: g })));
/** Fifty fields of 40 characters, as FIELDS lists them in each language (as many as fit, then "and N more"). */
const manyFields = Array.from({ length: 50 }, (_, i) => ({
  number: 950 + i,
  name: `${'Shamba la mahindi karibu na mto'.padEnd(36, 'x')}${950 + i}`,
  crop: 'other' as const,
}));
/** Samples that depend on the reader's language: each language renders its own. */
const perLanguage: Partial<Record<SmsKey, (language: Language) => Params[]>> = {
  'smsIn.fields': (language) => [
    { list: fieldList(language, manyFields), first: 950 },
    { list: fieldList(language, manyFields.slice(0, 1)), first: 950 },
  ],
};

const samples: Record<SmsKey, Params[]> = {
  'sms.activation': [{ code: '0427' }],
  'sms.activationLink': [{ code: '0427', link: `${site}/auth/activation?token=${'x'.repeat(43)}` }],
  'sms.reset': [{ code: '0427' }],
  'notifications.reviewSms': verdictSms(`${site}${shortLinks.analysis(2147483647)}`),
  'notifications.reviewSmsChanged': verdictSms(`${site}${shortLinks.analysis(2147483647)}`),
  'notifications.communityAnswerSms': [{ link: `${site}/community/posts/2147483647?answer=2147483647` }],
  'consultations.approved.sms': each(hows, (how) => ({ when, how, expert: user, phone })),
  'consultations.rejected.sms': [{ expert: user, when }],
  'consultations.cancelled.sms': [
    {
      who: message('consultations.cancelled.byFarmer', { name: user }),
      when,
      reason: message('consultations.reason', { reason: longest(500) }),
    },
  ],
  'consultations.reminder.smsToFarmer': each(hows, (how) => ({ when, how, expert: user, phone })),
  'consultations.reminder.smsToExpert': each(hows, (how) => ({ when, how, farmer: user, phone })),
  'vetting.approved.sms': [{}],
  'vetting.refused.sms': [{ reason: longest(500) }],
  'officer.approved.sms': [{}],
  'officer.refused.sms': [{ reason: longest(500) }],
  'officer.withdrawn.sms': [{ reason: longest(500) }],
  'officer.weekly.sms': [{ week: '2026-W53', district, confirmed: 99999, worse: 99999, waiting: 99999 }],
  'forecast.advisory.sms': weekdays.flatMap((day) => each(crops.slice(0, 2), (crop) => ({ crop, district, day }))),
  'forecast.bulletin.sms': [{ week: '2026-W53', count: 99999 }],
  'forecast.advisory.staffSms': weekdays.flatMap((day) => each(crops.slice(0, 2), (crop) => ({ crop, district, day }))),
  'outbreak.alert.sms': each(crops, (crop) => ({ crop, source: district, district })),
  'outbreak.alert.smsNeighbour': each(crops, (crop) => ({ crop, source: district, district })),
  'outbreak.alert.expertSms': each(crops, (crop) => ({ crop, source: district, district })),
  'followUp.walkSms': [{ field: 'f'.repeat(40), link: `${site}${shortLinks.walk(2147483647)}` }],
  'followUp.smsUssd': each(fields, (field) => ({ field, number: 999, code: '*384*12345#', menu: 8 })),
  'smsIn.help': [{ code: '*384*12345#' }],
  'smsIn.stopped': [{}],
  'smsIn.started': [{}],
  'smsIn.alertsOn': [{ district }],
  'smsIn.alertsOnResumed': [{ district }],
  'smsIn.alertsOff': [{}],
  'smsIn.district': [{ district }],
  'smsIn.districtUnknown': [{ name: 'n'.repeat(30) }],
  'smsIn.callMe': [{}],
  'smsIn.unknownNumber': [{ code: '*384*12345#' }],
  'smsIn.deleteCode': [{ code: '0427' }],
  'smsIn.deleted': [{ code: '*384*12345#' }],
  'smsIn.deleteWrongCode': [{}],
  'smsIn.deleteAdmin': [{}],
  'smsIn.deleteWait': [
    { wait: message('errors.auth.waitBeforeResend', { seconds: 60 }) },
    { wait: message('errors.auth.tooManyCodes', { count: 60 }) },
  ],
  'smsIn.photosOn': [{}],
  'smsIn.photosOff': [{}],
  'smsIn.walk': walkAnswers,
  'smsIn.walkHow': [{}],
  'smsIn.walkMore': [{ rust: 9999, looked: 9999, field: 9999 }],
  'smsIn.walkNoField': [{ number: 9999 }],
  'smsIn.fields': [],
  'smsIn.fieldsNone': [{ code: '*384*12345#', menu: 8 }],
  'clinic.resultSms': [
    ...reviewVerdicts.map((verdict) => ({
      verdict:
        verdict === 'common_rust'
          ? message('notifications.rustNames.beans')
          : message(`notifications.verdicts.${verdict}`),
      advice: message(`clinic.advice.${verdict}`),
      recommendation: message('clinic.recommendation', { text: longest(320) }),
      followUp: message('clinic.followUp', { code: '*384*12345#' }),
    })),
    // A rust verdict with the walk the expert counted: the field's advice (clinic/result-sms.ts).
    ...clinicWalks.map((w) => ({
      verdict: message('notifications.rustNames.beans'),
      advice: message('clinic.fieldAdvice', { ...walkAnswer(w) }),
      recommendation: message('clinic.recommendation', { text: longest(320) }),
      followUp: message('clinic.followUp', { code: '*384*12345#' }),
    })),
  ],
};

describe('every SMS Kutu sends, in every language (i18n/sms-texts.ts)', () => {
  const keys = Object.keys(smsTexts) as SmsKey[];

  it.each(keys)('%s is GSM-7 and takes exactly the messages it is allowed at its longest', (key) => {
    let most = 0;
    for (const language of languages)
      for (const params of perLanguage[key]?.(language) ?? samples[key]) {
        const text = render(language, message(key, params));
        expect(text, `${language}: ${text}`).not.toMatch(/\{\{|\b(sms|smsIn|clinic|notifications)\.\w+/);
        expect(isGsm7(plainSms(text)), `${language}: ${text}`).toBe(true);
        most = Math.max(most, smsParts(text).length);
      }
    // Exactly: a key allowed more messages than it needs would let a longer text through unseen.
    expect(most).toBe(smsTexts[key].parts);
  });

  it('no SMS takes more messages than the delivery lease allows for (lib/delivery-lease.ts)', () => {
    expect(Math.max(...keys.map((key) => smsTexts[key].parts))).toBeLessThanOrEqual(MAX_SMS_PARTS);
  });
});
