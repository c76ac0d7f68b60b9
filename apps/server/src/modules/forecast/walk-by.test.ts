import { describe, expect, it } from 'vitest';
import { render, message } from '../../i18n/i18n.ts';
import { walkBy } from './advisories.ts';

describe('the day a high week asks a walk by', () => {
  // On Sunday 29 Nov the SMS said "walk by Sunday" (read as next Sunday), the field page "by 29 Nov" and the
  // reminder "30 Nov".
  it('is never a day already under way: a day after the advisory at the soonest, in East Africa Time', () => {
    const sundayMorning = new Date('2026-11-29T06:00:00Z'); // 09:00 EAT
    expect(walkBy('2026-11-29', sundayMorning)).toEqual({
      day: '2026-11-30',
      at: new Date('2026-11-30T06:00:00Z'),
    });
    // A high day later in the week: its morning (07:00 EAT).
    expect(walkBy('2026-12-02', sundayMorning)).toEqual({ day: '2026-12-02', at: new Date('2026-12-02T04:00:00Z') });
    // Told late in the evening (22:30 EAT): the next evening, still the next day in East Africa.
    expect(walkBy('2026-11-29', new Date('2026-11-29T19:30:00Z')).day).toBe('2026-11-30');
  });

  it('is said with its date in every language, "by" it', () => {
    const day = message('dates.dayMonth', { day: 30, month: message('dates.months.11') });
    const params = { crop: message('outbreak.crops.maize'), district: 'Bukedea', day };
    expect(render('en', message('forecast.advisory.sms', params))).toContain('field by 30 November:');
    expect(render('sw', message('forecast.advisory.sms', params))).toContain('kufikia 30 Novemba:');
    expect(render('lg', message('forecast.advisory.sms', params))).toContain('obutasukka 30 Novemba:');
    for (const language of ['en', 'sw', 'lg'] as const)
      for (const key of ['forecast.advisory.sms', 'forecast.advisory.message', 'forecast.advisory.voice'] as const)
        expect(render(language, message(key, params))).not.toContain('tennatuuka');
  });
});
