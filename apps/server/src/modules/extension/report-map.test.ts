import PDFDocument from 'pdfkit';
import { describe, expect, it } from 'vitest';
import type { OfficerWeek } from '@kutu/contract';
import { drawDistrictMap } from './report-map.ts';

const hidden = { count: null, below_min: true, fewer_than_3: true };
const kumiWeek: OfficerWeek = {
  code: 'UG-208',
  name: 'Kumi',
  country: 'UG',
  week: '2026-W48',
  week_start: '2026-11-23',
  crops: [],
  // Butebo has no boundary of its own: it is drawn with Pallisa's, its parent.
  neighbours: [
    { code: 'UG-210', name: 'Pallisa', confirmed: hidden, alert: false },
    { code: 'UG-233', name: 'Butebo', confirmed: hidden, alert: true },
  ],
  alerts: [],
  clinic: { visits: 0, findings: {} },
  follow_ups: { better: 0, same: 0, worse: 0 },
  review: { waiting: 0, oldest_hours: null },
  farmers: [],
};

/** Every name the map writes, where it writes it, on a real pdfkit document. */
function drawnNames(week: OfficerWeek) {
  const doc = new PDFDocument({ size: 'A4' });
  const names: { name: string; x: number; y: number }[] = [];
  const text = doc.text.bind(doc);
  doc.text = ((s: string, x?: number, y?: number, o?: PDFKit.Mixins.TextOptions) => {
    names.push({ name: s, x: x ?? 0, y: y ?? 0 });
    return text(s, x, y, o);
  }) as typeof doc.text;
  const drawn = drawDistrictMap(doc, week, { x: 300, y: 100, width: 240, height: 180 });
  doc.end();
  return { drawn, names };
}

describe('the report map', () => {
  it('names the district and each neighbour once, inside the box', () => {
    const { drawn, names } = drawnNames(kumiWeek);
    expect(drawn).toBe(true);
    expect(names.map((n) => n.name).sort()).toEqual(['Butebo', 'Kumi', 'Pallisa']);
    for (const n of names) {
      expect(n.x + 40).toBeGreaterThanOrEqual(300);
      expect(n.x + 40).toBeLessThanOrEqual(540);
    }
  });

  it('stacks the names of districts drawn with one shared boundary instead of writing one over the other', () => {
    const { names } = drawnNames(kumiWeek);
    const pallisa = names.find((n) => n.name === 'Pallisa');
    const butebo = names.find((n) => n.name === 'Butebo');
    expect(butebo?.x).toBe(pallisa?.x);
    expect(Math.abs((butebo?.y ?? 0) - (pallisa?.y ?? 0))).toBeGreaterThanOrEqual(8);
  });
});
