import { describe, expect, it } from 'vitest';
import type { OfficerWeek } from '@kutu/contract';
import { pdfText } from '../../../test/support/pdf.ts';
import { weekCsv, weekPdf } from './report.ts';

/** A week of Kumi with one of everything: each count must take its noun in the singular. */
const week: OfficerWeek = {
  code: 'UG-208',
  name: 'Kumi',
  country: 'UG',
  week: '2026-W48',
  week_start: '2026-11-23',
  crops: [
    {
      crop: 'maize',
      confirmed: 1,
      reported: 1,
      trend: [],
      direction: 'steady',
      walks: {
        fields: { count: null, below_min: true },
        median_incidence: null,
        at_spray_share: { count: null, below_min: true },
      },
    },
    {
      crop: 'beans',
      confirmed: 2,
      reported: 3,
      trend: [],
      direction: 'steady',
      walks: {
        fields: { count: null, below_min: true },
        median_incidence: null,
        at_spray_share: { count: null, below_min: true },
      },
    },
  ],
  neighbours: [],
  alerts: [
    {
      crop: 'maize',
      source_district: 'UG-208',
      raised_at: '2026-11-24T08:00:00.000Z',
      ended_at: null,
      told: 1,
      delivered: 1,
      failed: 0,
      waiting: 0,
    },
  ],
  clinic: { visits: 0, findings: {} },
  advisories: [],
  follow_ups: { better: 0, same: 0, worse: 1, too_few: 0 },
  review: { waiting: 1, oldest_hours: null },
  farmers: [],
};
const at = new Date('2026-11-30T04:00:00Z');

describe('the weekly PDF', () => {
  // The walk read "1 farmers" in the officer's report.
  it('writes each count with its noun in the form it needs, in each language', async () => {
    const en = pdfText(await weekPdf([week], at, 'en'));
    expect(en).toContain('Maize: 1 farmer with rust confirmed by an expert, 1 more reported by the model');
    expect(en).toContain('Beans: 2 farmers with rust confirmed by an expert, 3 more reported by the model');
    expect(en).toContain('1 farmer told;');
    expect(en).not.toMatch(/\b1 farmers\b/);
    const sw = pdfText(await weekPdf([week], at, 'sw'));
    expect(sw).toContain('Mahindi: mkulima 1 mwenye kutu');
    expect(sw).toContain('Maharagwe: wakulima 2 wenye kutu');
    expect(sw).not.toMatch(/wakulima 1\b/);
    const lg = pdfText(await weekPdf([week], at, 'lg'));
    expect(lg).toContain('Kasooli: omulimi 1 alina obutalagge');
    expect(lg).toContain('abalala 3 baalagiddwa modeli');
    expect(lg).not.toMatch(/abalimi 1\b/);
  });

  // After an advisory run the officer was told farmers were told to walk, yet the week said "No alert".
  it('lists the week’s forecast advisories among the alerts, and re-walks with too few plants apart from "same"', async () => {
    const advised: OfficerWeek = {
      ...week,
      alerts: [],
      advisories: [
        {
          crop: 'maize',
          high_day: '2026-12-01',
          told_at: '2026-11-30T03:10:00.000Z',
          told: 4,
          delivered: 3,
          failed: 0,
          waiting: 1,
        },
      ],
      follow_ups: { better: 0, same: 1, worse: 0, too_few: 2 },
    };
    const en = pdfText(await weekPdf([advised], at, 'en'));
    expect(en).not.toContain('No alert in this district this week.');
    expect(en).toContain(
      'Maize rust risk high from 2026-12-01: farmers told to walk their fields 2026-11-30: 4 farmers told;',
    );
    expect(en).toContain('Follow-ups: 0 better, 1 same, 0 worse, 2 too few plants to tell');
    expect(pdfText(await weekPdf([advised], at, 'lg'))).toContain("Akabi k'obutalagge ku Kasooli");
    const csv = weekCsv([advised]);
    expect(csv).toContain(',advisory_told,maize advisory high from 2026-12-01,4\n');
    expect(csv).toContain(',follow_ups_same,2026-W48,1\n');
    expect(csv).toContain(',follow_ups_too_few_plants,2026-W48,2\n');
    expect(pdfText(await weekPdf([{ ...advised, advisories: [] }], at, 'en'))).toContain(
      'No alert in this district this week.',
    );
  });
});
