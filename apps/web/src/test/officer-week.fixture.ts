import type { OfficerMeReply, OfficerWeek } from '@kutu/contract';

/** An approved Kumi officer and their week, for the week screen's tests. */
export const me: OfficerMeReply = {
  status: 'approved',
  reason: null,
  office: 'Kumi District Agricultural Office',
  districts: [{ code: 'UG-208', name: 'Kumi', country: 'UG' }],
  national: false,
};
const trend = [3, 1, 0, 2, 3, 4, 3, 6].map((confirmed, i) => ({
  week: `2026-W${41 + i}`,
  week_start: `2026-10-${String(5 + i).padStart(2, '0')}`,
  confirmed,
}));
export const week: OfficerWeek = {
  code: 'UG-208',
  name: 'Kumi',
  country: 'UG',
  week: '2026-W48',
  week_start: '2026-11-23',
  crops: [
    {
      crop: 'maize',
      confirmed: 6,
      reported: 2,
      trend,
      direction: 'rising',
      walks: {
        fields: { count: 12, below_min: false },
        median_incidence: 0.184,
        at_spray_share: { count: null, below_min: true },
      },
    },
    {
      crop: 'beans',
      confirmed: 0,
      reported: 0,
      trend: trend.map((w) => ({ ...w, confirmed: 0 })),
      direction: 'steady',
      walks: {
        fields: { count: null, below_min: true },
        median_incidence: null,
        at_spray_share: { count: null, below_min: true },
      },
    },
  ],
  neighbours: [{ code: 'UG-219', name: 'Bukedea', confirmed: { count: null, below_min: true }, alert: true }],
  alerts: [
    {
      crop: 'maize',
      source_district: 'UG-208',
      raised_at: '2026-11-24T08:00:00.000Z',
      ended_at: null,
      told: 120,
      delivered: 101,
      failed: 4,
      waiting: 15,
    },
  ],
  clinic: { visits: 2, findings: { common_rust: 2 } },
  advisories: [],
  follow_ups: { better: 5, same: 1, worse: 2, too_few: 1 },
  review: { waiting: 3, oldest_hours: 26.5 },
  farmers: [
    {
      farmer_id: 77,
      username: 'okello',
      phone: '+256772000111',
      language: 'lg',
      reasons: ['worse', 'callback'],
      at: '2026-11-25T08:00:00.000Z',
      analysis_id: 901,
      actions: [],
    },
    {
      farmer_id: 78,
      username: 'akello',
      phone: '+256772000222',
      language: 'en',
      reasons: ['walk'],
      at: '2026-11-24T08:00:00.000Z',
      analysis_id: null,
      actions: [],
    },
  ],
};
