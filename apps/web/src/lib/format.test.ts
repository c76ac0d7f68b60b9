import { afterEach, describe, expect, it, vi } from 'vitest';
import i18n from './i18n.ts';
import luganda from './locales/lg.json';
import {
  formatDate,
  formatDateTime,
  formatMonth,
  formatNumber,
  formatPercent,
  intlLocales,
  viewerTimeZone,
  zoneName,
} from './format.ts';

describe('formatDateTime', () => {
  const at = new Date('2026-03-02T08:00:00Z');

  it('shows East Africa Time by its name, not as an offset', () => {
    expect(formatDateTime(at, 'Africa/Kampala')).toBe('2 Mar 2026, 11:00 EAT');
    expect(formatDateTime(at, 'Africa/Nairobi')).toBe('2 Mar 2026, 11:00 EAT');
  });

  it("names other viewers' zones too", () => {
    expect(zoneName(at, 'America/New_York')).toBe('EST');
    expect(zoneName(at, 'UTC')).toBe('UTC');
    expect(formatDateTime(at, 'Europe/London')).toBe('2 Mar 2026, 08:00 GMT');
  });

  it('is empty for no date', () => {
    expect(formatDateTime(null)).toBe('');
  });
});

describe('formats in the chosen language', () => {
  const at = new Date('2026-03-02T08:00:00Z');

  it('keeps the British English forms for English', () => {
    expect(formatDateTime(at, 'Africa/Nairobi', 'en')).toBe('2 Mar 2026, 11:00 EAT');
    expect(formatDate(at, 'Africa/Nairobi', 'en')).toBe('2 Mar 2026');
    expect(formatMonth('2026-01', true, 'en')).toBe('Jan 2026');
    expect(formatMonth('2026-01', false, 'en')).toBe('Jan');
    expect(formatNumber(12345, undefined, 'en')).toBe('12,345');
    expect(formatPercent(0.875, 2, 'en')).toBe('87.50%');
  });

  it('uses Kiswahili month names', () => {
    expect(formatDateTime(at, 'Africa/Nairobi', 'sw')).toBe('2 Mac 2026, 11:00 EAT');
    expect(formatDate(at, 'Africa/Nairobi', 'sw')).toBe('2 Mac 2026');
    expect(formatMonth('2026-03', true, 'sw')).toBe('Mac 2026');
    expect(formatNumber(12345, undefined, 'sw')).toBe('12,345');
    expect(formatPercent(0.875, 1, 'sw')).toBe('87.5%');
  });

  it('follows the language on screen when none is given', async () => {
    await i18n.changeLanguage('sw');
    try {
      expect(formatDate(at, 'Africa/Kampala')).toBe('2 Mac 2026');
    } finally {
      await i18n.changeLanguage('en');
    }
    expect(formatDate(at, 'Africa/Kampala')).toBe('2 Mar 2026');
  });
});

describe('formatNumber without a formatter', () => {
  it('prints every count under 1,000 as Intl does in each language', () => {
    for (const language of ['en', 'sw', 'lg'] as const) {
      const intl = new Intl.NumberFormat(intlLocales[language], {});
      for (let n = 0; n < 1000; n++) expect(formatNumber(n, undefined, language)).toBe(intl.format(n));
    }
  });

  it('leaves larger, negative and fractional numbers to Intl', () => {
    expect(formatNumber(1000, undefined, 'en')).toBe('1,000');
    expect(formatNumber(-5, undefined, 'en')).toBe(new Intl.NumberFormat('en-GB').format(-5));
    expect(formatNumber(2.5, undefined, 'en')).toBe('2.5');
    expect(formatNumber(7, 1, 'en')).toBe('7.0');
  });
});

describe('viewerTimeZone', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('takes the zone from Temporal where the browser has it', () => {
    vi.stubGlobal('Temporal', { Now: { timeZoneId: () => 'Africa/Nairobi' } });
    expect(viewerTimeZone()).toBe('Africa/Nairobi');
  });

  it('asks Intl without Temporal', () => {
    vi.stubGlobal('Temporal', undefined);
    expect(viewerTimeZone()).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
  });
});

describe('Luganda dates', () => {
  const at = new Date('2026-11-25T08:00:00Z');

  it('writes the day, the Luganda month and the year, never the American "Nov 25, 2026"', () => {
    i18n.addResourceBundle('lg', 'translation', luganda, true, true);
    expect(formatDate(at, 'Africa/Kampala', 'lg')).toBe('25 Novemba 2026');
    expect(formatDateTime(at, 'Africa/Kampala', 'lg')).toBe('25 Novemba 2026, 11:00 EAT');
    expect(formatDate(new Date('2026-03-02T08:00:00Z'), 'Africa/Kampala', 'lg')).toBe('2 Marisi 2026');
    expect(formatMonth('2026-01', true, 'lg')).toBe('Janwaliyo 2026');
    expect(formatMonth('2026-01', false, 'lg')).toBe('Janwaliyo');
  });
});
