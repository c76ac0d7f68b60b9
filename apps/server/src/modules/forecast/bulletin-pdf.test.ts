import { describe, expect, it } from 'vitest';
import { districts, forecastCrops } from '@kutu/contract';
import { pdfPageCount, pdfPages } from '../../../test/support/pdf.ts';
import { bulletinCsv, bulletinRows } from './bulletin.ts';
import { bulletinPdf } from './bulletin-pdf.ts';
import type { RiskRow } from './forecast.repo.ts';

const WEEK = ['2026-11-30', '2026-12-01', '2026-12-02', '2026-12-03', '2026-12-04', '2026-12-05', '2026-12-06'];

/** Every district and county of both countries: maize high all week in every third, rust confirmed in every fifth, walked everywhere. */
function nationalBulletin() {
  // The bulletin reads each day's level alone, not why.
  const basis = {} as RiskRow['basis'];
  const maize: RiskRow[] = districts.flatMap((d, i) =>
    WEEK.map((day) => ({ district: d.code, crop: 'maize', day, level: i % 3 === 0 ? 'high' : 'low', basis })),
  );
  const confirmed = new Map(districts.filter((_, i) => i % 5 === 0).map((d) => [`${d.code}|maize`, 3]));
  const walked = new Map(
    districts.flatMap((d) => forecastCrops.map((c) => [`${d.code}|${c}`, { fields: 2, median: 0.125 }] as const)),
  );
  return bulletinRows({
    risks: new Map([['maize', maize]]),
    confirmed,
    walked,
    runAt: new Date('2026-11-29T03:00:00Z'),
  });
}

describe('the national bulletin as PDF', () => {
  it('fits the whole country in a handful of pages, each row whole on one page', async () => {
    const b = nationalBulletin();
    expect(b.rows.length).toBe(districts.length * forecastCrops.length);
    const pdf = await bulletinPdf(b, new Date('2026-11-29T06:00:00Z'), 'en');
    expect(pdfPageCount(pdf)).toBeLessThanOrEqual(8);
    const pages = pdfPages(pdf);
    expect(pages.length).toBe(pdfPageCount(pdf));
    const isPlace = (line: string) => /^.+ \((UG|KE)-\d+\)$/.test(line);
    for (const [n, lines] of pages.entries()) {
      // No page holds a lone cell: every district cell has its crop, risk and median beside it on its page.
      const places = lines.filter(isPlace).length;
      expect(lines.length, `page ${n + 1}: ${lines.join(' | ')}`).toBeGreaterThan(8);
      expect(lines.filter((l) => l === 'Maize' || l === 'Beans').length, `page ${n + 1}`).toBe(places);
      expect(lines.filter((l) => l === '13%').length, `page ${n + 1}`).toBe(places);
    }
    // Every row is drawn once, whole.
    expect(pages.flat().filter(isPlace).length).toBe(b.rows.length);
    // The walk-first list says the seven days once for the group, not on every line.
    const text = pages.flat().join('\n');
    expect(text).toMatch(/High on 11-30 . 12-06 \(7\):/); // the ellipsis in the PDF's own encoding
    expect(text.split('2026-12-03').length - 1).toBe(0);
    const first = b.rows.filter((r) => r.walkFirst);
    expect(first.length).toBeGreaterThan(20);
    expect(text).toContain(`1. ${first[0].name} (${first[0].district}), Maize`);
    // The median incidence as a percentage: 0.125 reads 13%.
    expect(text).not.toContain('0.125');
  });

  it('numbers only the districts to walk first in the CSV', () => {
    const b = nationalBulletin();
    const lines = bulletinCsv(b)
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => l.split(','));
    const first = b.rows.filter((r) => r.walkFirst).length;
    expect(lines.slice(0, first).map((l) => l[0])).toEqual(Array.from({ length: first }, (_, i) => String(i + 1)));
    for (const l of lines.slice(first)) expect(l[0]).toBe('');
  });
});
