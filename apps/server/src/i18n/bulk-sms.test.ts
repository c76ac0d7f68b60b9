import { describe, expect, it } from 'vitest';
import { districtByCode, districts, languages, outbreakCrops, shortLinks } from '@kutu/contract';
import { isGsm7, plainSms, smsParts } from '../lib/sms-text.ts';
import { message, type MessageKey, type Params, render } from './i18n.ts';
import { type BulkSmsKey, bulkSmsKeys, smsTexts } from './sms-texts.ts';

/**
 * Every text sent to many people, rendered in every language for every district and county (with its
 * longest-named neighbour where a text names two), at the longest other values it is sent with: one
 * GSM-7 message each. A new bulk text is added to `bulkSmsKeys` and given its values here.
 */
const site = 'https://app.kutu.africa';
const crops = outbreakCrops.map((c) => message(`outbreak.crops.${c}`));
const longestName = (codes: readonly string[]) =>
  codes
    .map((code) => districtByCode(code)?.name ?? '')
    .sort((a, b) => b.length - a.length)
    .at(0);
/** Each district or county, and the place an alert comes from: itself, or a neighbour for the neighbours' text. */
const places = districts.map((d) => ({ district: d.name, neighbour: longestName(d.neighbours) ?? d.name }));
const fields = (['maize', 'beans', 'other'] as const).map((c) => message(`followUp.field.${c}`));
const weekdays = [0, 1, 2, 3, 4, 5, 6].map((d) => message(`dates.weekdays.${d}` as MessageKey));
/** The day a walk is asked by, in each month, with a two-digit day. */
const walkByDays = Array.from({ length: 12 }, (_, i) =>
  message('dates.dayMonth', { day: 30, month: message(`dates.months.${i + 1}` as MessageKey) }),
);
/** The rust weather advisory's values: each crop it is sent for, each day it may name. */
const advisories = (district: string) =>
  (['maize', 'beans'] as const).flatMap((c) =>
    walkByDays.map((day) => ({ crop: message(`outbreak.crops.${c}`), district, day })),
  );

const samples: Record<BulkSmsKey, (place: (typeof places)[number]) => Params[]> = {
  'outbreak.alert.sms': ({ district }) => crops.map((crop) => ({ crop, source: district, district })),
  'outbreak.alert.smsNeighbour': ({ district, neighbour }) =>
    crops.map((crop) => ({ crop, source: neighbour, district })),
  'outbreak.alert.expertSms': ({ district, neighbour }) => [
    ...crops.map((crop) => ({ crop, source: district, district })),
    ...crops.map((crop) => ({ crop, source: neighbour, district })),
  ],
  'officer.weekly.sms': ({ district }) => [
    { week: '2026-W53', district, confirmed: 99999, worse: 99999, waiting: 99999 },
  ],
  // A field's name is up to 40 characters (made GSM-7 before it is sent).
  'followUp.walkSms': () => [{ field: 'f'.repeat(40), link: `${site}${shortLinks.walk(2147483647)}` }],
  'followUp.smsUssd': () => fields.map((field) => ({ field, number: 999, code: '*384*12345#', menu: 8 })),
  'forecast.advisory.sms': ({ district }) => advisories(district),
  // Staff hear the weekday the high risk starts.
  'forecast.advisory.staffSms': ({ district }) =>
    (['maize', 'beans'] as const).flatMap((c) =>
      weekdays.map((day) => ({ crop: message(`outbreak.crops.${c}`), district, day })),
    ),
};

describe('every text sent to many people is one GSM-7 message (i18n/sms-texts.ts bulkSmsKeys)', () => {
  it.each([...bulkSmsKeys])('%s, in every language, for every district and county', (key) => {
    const longer: string[] = [];
    for (const language of languages)
      for (const place of places)
        for (const params of samples[key](place)) {
          const text = render(language, message(key, params));
          expect(isGsm7(plainSms(text)), `${language}: ${text}`).toBe(true);
          if (smsParts(text).length > 1) longer.push(`${language} (${text.length}): ${text}`);
        }
    expect([...new Set(longer)].slice(0, 5)).toEqual([]);
  });

  it('allows each of them one message in the list of every SMS', () => {
    expect(bulkSmsKeys.filter((key) => smsTexts[key].parts !== 1)).toEqual([]);
  });
});
