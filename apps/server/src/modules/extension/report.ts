import PDFDocument from 'pdfkit';
import type { OfficerWeek } from '@kutu/contract';
import { csvLine } from '../../lib/csv.ts';
import { drawDistrictMap } from './report-map.ts';

const smallText = (c: { count: number | null; fewer_than_3: boolean }) => (c.fewer_than_3 ? '<3' : String(c.count));

/** The rows of one district's week, as the CSV and the PDF both list them: [section, item, value]. */
export function weekRows(w: OfficerWeek): [string, string, string | number][] {
  const rows: [string, string, string | number][] = [];
  for (const c of w.crops) {
    rows.push([`confirmed_${c.crop}`, w.week, c.confirmed]);
    rows.push([`reported_${c.crop}`, w.week, c.reported]);
    rows.push([`direction_${c.crop}`, w.week, c.direction]);
    for (const t of c.trend.slice(0, -1)) rows.push([`confirmed_${c.crop}`, t.week, t.confirmed]);
  }
  for (const a of w.alerts) {
    const label = `${a.crop} since ${a.raised_at.slice(0, 10)}${a.ended_at ? ` until ${a.ended_at.slice(0, 10)}` : ''}`;
    rows.push(['alert_told', label, a.told]);
    rows.push(['alert_delivered', label, a.delivered]);
    rows.push(['alert_failed', label, a.failed]);
    rows.push(['alert_waiting', label, a.waiting]);
  }
  rows.push(['clinic_visits', w.week, w.clinic.visits]);
  for (const [finding, n] of Object.entries(w.clinic.findings)) rows.push(['clinic_finding', finding, n]);
  rows.push(['follow_ups_better', w.week, w.follow_ups.better]);
  rows.push(['follow_ups_same', w.week, w.follow_ups.same]);
  rows.push(['follow_ups_worse', w.week, w.follow_ups.worse]);
  rows.push(['review_waiting', 'now', w.review.waiting]);
  rows.push(['review_oldest_hours', 'now', w.review.oldest_hours ?? '']);
  for (const n of w.neighbours) rows.push(['neighbour_confirmed', `${n.code} ${n.name}`, smallText(n.confirmed)]);
  for (const f of w.farmers) rows.push([`farmer_${f.reason}`, `${f.username} ${f.phone}`, f.at.slice(0, 10)]);
  return rows;
}

export const REPORT_CSV_COLUMNS = ['district', 'name', 'week', 'section', 'item', 'value'] as const;

/** One block of rows per district, the week screen's numbers. */
export function weekCsv(weeks: OfficerWeek[]): string {
  return [
    csvLine([...REPORT_CSV_COLUMNS]),
    ...weeks.flatMap((w) => weekRows(w).map((r) => csvLine([w.code, w.name, w.week, ...r]))),
  ].join('');
}

/** A small bar chart of confirmed cases per week (the trend), drawn with pdfkit's vector shapes. */
function trendChart(doc: PDFKit.PDFDocument, w: OfficerWeek, x: number, y: number) {
  const series = w.crops[0]?.trend ?? [];
  const totals = series.map((_, i) => w.crops.reduce((a, c) => a + (c.trend[i]?.confirmed ?? 0), 0));
  const max = Math.max(1, ...totals);
  const barW = 22;
  totals.forEach((n, i) => {
    const h = Math.round((n / max) * 60);
    doc.rect(x + i * (barW + 6), y + 60 - h, barW, h).fill(i === totals.length - 1 ? '#b45309' : '#9ca3af');
    doc
      .fillColor('#111')
      .fontSize(7)
      .text(String(n), x + i * (barW + 6), y + 62, { width: barW, align: 'center' })
      .text(series[i].week.slice(5), x + i * (barW + 6), y + 71, { width: barW, align: 'center' });
  });
}

/** One A4 page per district: the week's numbers, the trend, the neighbours and the farmers to call. */
export function weekPdf(weeks: OfficerWeek[], generatedAt: Date): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: 40,
    autoFirstPage: false,
    info: { Title: `Kutu weekly report: ${weeks.map((w) => w.name).join(', ')}` },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  for (const w of weeks) {
    doc.addPage();
    doc.fillColor('#111').fontSize(18).text(`${w.name} (${w.code})`);
    doc
      .fontSize(11)
      .fillColor('#444')
      .text(
        `Week ${w.week} (from ${w.week_start}) - made ${generatedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC`,
      );
    doc.moveDown(0.5).fillColor('#111').fontSize(12).text('Confirmed rust cases (farmers) this week');
    for (const c of w.crops) {
      doc
        .fontSize(10)
        .text(`${c.crop}: ${c.confirmed} confirmed, ${c.reported} reported by the model only, ${c.direction}`);
    }
    const chartY = doc.y + 6;
    trendChart(doc, w, 40, chartY);
    // The district among its neighbours, beside the trend.
    drawDistrictMap(doc, w, { x: 300, y: chartY - 40, width: 250, height: 130 });
    doc.y = chartY + 100;
    doc.x = 40;
    doc.fontSize(12).text('Alerts');
    if (w.alerts.length === 0) doc.fontSize(10).text('No alert this week.');
    for (const a of w.alerts) {
      doc
        .fontSize(10)
        .text(
          `${a.crop} since ${a.raised_at.slice(0, 10)}${a.ended_at ? ` until ${a.ended_at.slice(0, 10)}` : ' (open)'}: ${a.told} farmers told, SMS ${a.delivered} delivered, ${a.failed} failed, ${a.waiting} waiting`,
        );
    }
    doc.moveDown(0.5).fontSize(12).text('Plant clinics, follow-ups, expert queue');
    const findings = Object.entries(w.clinic.findings)
      .map(([k, n]) => `${k} ${n}`)
      .join(', ');
    doc.fontSize(10).text(`Clinic visits: ${w.clinic.visits}${findings ? ` (${findings})` : ''}`);
    doc.text(`Follow-ups: ${w.follow_ups.better} better, ${w.follow_ups.same} same, ${w.follow_ups.worse} worse`);
    doc.text(
      `Photos waiting for an expert: ${w.review.waiting}${w.review.oldest_hours !== null ? `, the oldest for ${w.review.oldest_hours} h` : ''}`,
    );
    doc.moveDown(0.5).fontSize(12).text('Neighbouring districts (confirmed this week; 0, 1 and 2 alike, shown as <3)');
    doc
      .fontSize(9)
      .text(
        w.neighbours.map((n) => `${n.name} ${smallText(n.confirmed)}${n.alert ? ' (alert)' : ''}`).join('; ') || 'none',
      );
    doc.moveDown(0.5).fontSize(12).text('Farmers to call or visit');
    if (w.farmers.length === 0) doc.fontSize(10).text('Nobody said worse or asked to be called back.');
    for (const f of w.farmers.slice(0, 25)) {
      const last = f.actions[0];
      doc
        .fontSize(9)
        .text(
          `${f.username}  ${f.phone}  ${f.reason === 'worse' ? 'said worse' : 'asked for a call'} ${f.at.slice(0, 10)}${last ? `  - ${last.kind} by ${last.officer} ${last.at.slice(0, 10)}` : ''}`,
        );
    }
    if (w.farmers.length > 25) doc.fontSize(9).text(`… and ${w.farmers.length - 25} more in Kutu.`);
  }
  doc.end();
  return done;
}
