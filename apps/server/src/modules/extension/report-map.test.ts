import PDFDocument from 'pdfkit';
import { describe, expect, it } from 'vitest';
import { districtByCode, type OfficerWeek } from '@kutu/contract';
import { drawDistrictMap } from './report-map.ts';

const hidden = { count: null, below_min: true };
/** A week of `code` with all its neighbours, as the report draws it. */
const weekOf = (code: string): OfficerWeek => {
  const district = districtByCode(code)!;
  return {
    code,
    name: district.name,
    country: district.country,
    week: '2026-W48',
    week_start: '2026-11-23',
    crops: [],
    neighbours: district.neighbours.map((n) => ({
      code: n,
      name: districtByCode(n)!.name,
      confirmed: hidden,
      alert: false,
    })),
    alerts: [],
    clinic: { visits: 0, findings: {} },
    advisories: [],
    follow_ups: { better: 0, same: 0, worse: 0, too_few: 0 },
    review: { waiting: 0, oldest_hours: null },
    farmers: [],
  };
};
// Kumi (UG-208): Butebo has no boundary of its own, it is drawn with Pallisa's, its parent.
const kumiWeek: OfficerWeek = {
  ...weekOf('UG-208'),
  neighbours: [
    { code: 'UG-210', name: 'Pallisa', confirmed: hidden, alert: false },
    { code: 'UG-233', name: 'Butebo', confirmed: hidden, alert: true },
  ],
};
const BOX = { x: 300, y: 100, width: 250, height: 110 };

/** Every name the map writes and the box it takes, and every fill colour, on a real pdfkit document. */
function drawn(week: OfficerWeek) {
  const doc = new PDFDocument({ size: 'A4' });
  const names: { name: string; x: number; y: number; width: number; height: number }[] = [];
  const fills: string[] = [];
  const text = doc.text.bind(doc);
  doc.text = ((s: string, x?: number, y?: number, o?: PDFKit.Mixins.TextOptions) => {
    const size = (doc as unknown as { _fontSize: number })._fontSize;
    names.push({ name: s, x: x ?? 0, y: y ?? 0, width: doc.widthOfString(s), height: size });
    return text(s, x, y, o);
  }) as typeof doc.text;
  const fillAndStroke = doc.fillAndStroke.bind(doc);
  doc.fillAndStroke = ((fill: string, stroke: string) => {
    fills.push(fill);
    return fillAndStroke(fill, stroke);
  }) as typeof doc.fillAndStroke;
  const ok = drawDistrictMap(doc, week, BOX, (name) => `${name} (islands)`);
  doc.end();
  return { ok, names, fills };
}

const overlap = (a: { x: number; y: number; width: number; height: number }, b: typeof a) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

describe('the report map', () => {
  // Kampala, Mukono and Wakiso were written one over the other; Pallisa and Butebo share a shape.
  it('names the district and each neighbour once, inside the box, no name over another', () => {
    for (const week of [kumiWeek, weekOf('UG-113'), weekOf('UG-102'), weekOf('UG-101')]) {
      const { ok, names } = drawn(week);
      expect(ok).toBe(true);
      expect(names.map((n) => n.name.replace(' (islands)', '')).sort()).toEqual(
        [week.name, ...week.neighbours.map((n) => n.name)].sort(),
      );
      for (const n of names) {
        expect(n.x, n.name).toBeGreaterThanOrEqual(BOX.x);
        expect(n.x + n.width, n.name).toBeLessThanOrEqual(BOX.x + BOX.width + 2);
        expect(n.y + n.height, n.name).toBeLessThanOrEqual(BOX.y + BOX.height + 1);
      }
      for (const [i, a] of names.entries())
        for (const b of names.slice(i + 1)) expect(overlap(a, b), `${week.name}: ${a.name} over ${b.name}`).toBe(false);
    }
  });

  // Kalangala's boundary is the lake around its islands: it was a grey rectangle of land.
  it('draws an island district as water, named as islands', () => {
    const { names, fills } = drawn(weekOf('UG-113'));
    expect(names.map((n) => n.name)).toContain('Kalangala (islands)');
    expect(fills).toContain('#dbeafe');
    expect(drawn(kumiWeek).fills).not.toContain('#dbeafe');
  });
});
