import PDFDocument from 'pdfkit';
import { type Language, type OfficerWeek, SMALL_COUNT_WORDS, smallCountText } from '@kutu/contract';
import { catalogs, message, type MessageKey, type Params, t } from '../../i18n/i18n.ts';
import { csvLine } from '../../lib/csv.ts';
import { drawDistrictMap } from './report-map.ts';
import { walkLine, walkRows } from './walks-week.ts';

/** The rows of one district's week, as the CSV and the PDF both list them: [section, item, value]. */
export function weekRows(w: OfficerWeek): [string, string, string | number][] {
  const rows: [string, string, string | number][] = [];
  for (const c of w.crops) {
    rows.push([`confirmed_${c.crop}`, w.week, c.confirmed]);
    rows.push([`reported_${c.crop}`, w.week, c.reported]);
    rows.push([`direction_${c.crop}`, w.week, c.direction]);
    for (const t of c.trend.slice(0, -1)) rows.push([`confirmed_${c.crop}`, t.week, t.confirmed]);
    rows.push(...walkRows(w.week, c));
  }
  for (const a of w.alerts) {
    const label = `${a.crop} since ${a.raised_at.slice(0, 10)}${a.ended_at ? ` until ${a.ended_at.slice(0, 10)}` : ''}`;
    rows.push(['alert_told', label, a.told]);
    rows.push(['alert_delivered', label, a.delivered]);
    rows.push(['alert_failed', label, a.failed]);
    rows.push(['alert_waiting', label, a.waiting]);
  }
  for (const a of w.advisories) {
    const label = `${a.crop} advisory high from ${a.high_day}`;
    rows.push(['advisory_told', label, a.told]);
    rows.push(['advisory_delivered', label, a.delivered]);
    rows.push(['advisory_failed', label, a.failed]);
    rows.push(['advisory_waiting', label, a.waiting]);
  }
  for (const r of w.next_risk ?? []) {
    rows.push([`next_risk_${r.crop}`, 'next 7 days', r.worst]);
    for (const day of r.high_days) rows.push([`next_high_${r.crop}`, day, 'high']);
  }
  rows.push(['clinic_visits', w.week, w.clinic.visits]);
  for (const [finding, n] of Object.entries(w.clinic.findings)) rows.push(['clinic_finding', finding, n]);
  rows.push(['follow_ups_better', w.week, w.follow_ups.better]);
  rows.push(['follow_ups_same', w.week, w.follow_ups.same]);
  rows.push(['follow_ups_worse', w.week, w.follow_ups.worse]);
  rows.push(['follow_ups_too_few_plants', w.week, w.follow_ups.too_few]);
  rows.push(['review_waiting', 'now', w.review.waiting]);
  rows.push(['review_oldest_hours', 'now', w.review.oldest_hours ?? '']);
  for (const n of w.neighbours) rows.push(['neighbour_confirmed', `${n.code} ${n.name}`, smallCountText(n.confirmed)]);
  for (const f of w.farmers)
    for (const reason of f.reasons) rows.push([`farmer_${reason}`, `${f.username} ${f.phone}`, f.at.slice(0, 10)]);
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

/** A label of one of the report's small lists (crops, findings), or the value itself when it has none. */
function labelOf(language: Language, list: 'crops' | 'findings', value: string): string {
  const labels: Record<string, string> = catalogs[language].officer.report[list];
  return labels[value] ?? value;
}

/**
 * One A4 page per district, in the officer's language: the week's numbers, the trend, the neighbours and
 * the farmers to call. The CSV keeps its codes, for spreadsheets.
 */
export function weekPdf(weeks: OfficerWeek[], generatedAt: Date, language: Language): Promise<Buffer> {
  const say = (key: MessageKey, params?: Params) => t(language, key, params);
  const doc = new PDFDocument({
    size: 'A4',
    margin: 40,
    autoFirstPage: false,
    info: { Title: say('officer.report.title', { districts: weeks.map((w) => w.name).join(', ') }) },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const crop = (code: string) => labelOf(language, 'crops', code);
  for (const w of weeks) {
    doc.addPage();
    doc.fillColor('#111').fontSize(18).text(`${w.name} (${w.code})`);
    doc
      .fontSize(11)
      .fillColor('#444')
      .text(say('officer.report.made', { week: w.week, start: w.week_start, when: generatedAt }));
    doc.moveDown(0.5).fillColor('#111').fontSize(12).text(say('officer.report.cases'));
    for (const c of w.crops) {
      doc.fontSize(10).text(
        say('officer.report.cropLine', {
          crop: crop(c.crop),
          confirmed: message('officer.report.confirmedFarmers', { count: c.confirmed }),
          reported: message('officer.report.reportedFarmers', { count: c.reported }),
          direction: say(`officer.report.direction.${c.direction}`),
        }),
      );
      doc.text(walkLine(say, c, crop(c.crop)));
    }
    const chartY = doc.y + 6;
    trendChart(doc, w, 40, chartY);
    // The district among its neighbours, beside the trend.
    drawDistrictMap(doc, w, { x: 300, y: chartY, width: 250, height: 110 }, (name) =>
      say('officer.report.islands', { name }),
    );
    doc.y = chartY + 120;
    doc.x = 40;
    if (w.next_risk) {
      doc.fontSize(12).text(say('officer.report.nextRisk'));
      for (const r of w.next_risk) {
        const days = r.high_days.length ? say('officer.report.highDays', { days: r.high_days.join(', ') }) : '';
        doc.fontSize(10).text(`${crop(r.crop)}: ${say(`officer.report.risk.${r.worst}`)}${days ? ` (${days})` : ''}`);
      }
      doc.moveDown(0.5);
    }
    doc.fontSize(12).text(say('officer.report.alerts'));
    if (w.alerts.length === 0 && w.advisories.length === 0) doc.fontSize(10).text(say('officer.report.noAlert'));
    for (const a of w.advisories) {
      const counts = say('officer.report.alertCounts', {
        told: message('officer.report.told', { count: a.told }),
        delivered: a.delivered,
        failed: a.failed,
        waiting: a.waiting,
      });
      const told = say('officer.report.advisory', {
        crop: crop(a.crop),
        day: a.high_day,
        when: a.told_at.slice(0, 10),
      });
      doc.fontSize(10).text(`${told}: ${counts}`);
    }
    for (const a of w.alerts) {
      const since = say('officer.report.alertSince', { crop: crop(a.crop), since: a.raised_at.slice(0, 10) });
      const until = a.ended_at
        ? say('officer.report.alertUntil', { until: a.ended_at.slice(0, 10) })
        : say('officer.report.alertOpen');
      const counts = say('officer.report.alertCounts', {
        told: message('officer.report.told', { count: a.told }),
        delivered: a.delivered,
        failed: a.failed,
        waiting: a.waiting,
      });
      doc.fontSize(10).text(`${since} ${until}: ${counts}`);
    }
    doc.moveDown(0.5).fontSize(12).text(say('officer.report.clinics'));
    const findings = Object.entries(w.clinic.findings)
      .map(([k, n]) => `${labelOf(language, 'findings', k)} ${n}`)
      .join(', ');
    doc
      .fontSize(10)
      .text(`${say('officer.report.visits', { count: w.clinic.visits })}${findings ? ` (${findings})` : ''}`);
    doc.text(say('officer.report.followUps', { ...w.follow_ups }));
    const oldest =
      w.review.oldest_hours !== null ? `, ${say('officer.report.oldest', { hours: w.review.oldest_hours })}` : '';
    doc.text(`${say('officer.report.waiting', { count: w.review.waiting })}${oldest}`);
    doc.moveDown(0.5).fontSize(12).text(say('officer.report.neighbours', SMALL_COUNT_WORDS));
    const hidden = say('officer.report.hiddenCount', SMALL_COUNT_WORDS);
    const neighbour = (n: OfficerWeek['neighbours'][number]) =>
      `${n.name} ${n.confirmed.below_min ? hidden : n.confirmed.count}${n.alert ? ` ${say('officer.report.alertMark')}` : ''}`;
    doc.fontSize(9).text(w.neighbours.map(neighbour).join('; ') || say('officer.report.none'));
    doc.moveDown(0.5).fontSize(12).text(say('officer.report.farmers'));
    if (w.farmers.length === 0) doc.fontSize(10).text(say('officer.report.noFarmers'));
    for (const f of w.farmers.slice(0, 25)) {
      const last = f.actions[0];
      const action = last
        ? `  - ${say(`officer.report.last.${last.kind}`, { who: last.officer, when: last.at.slice(0, 10) })}`
        : '';
      doc
        .fontSize(9)
        .text(
          `${f.username}  ${f.phone}  ${f.reasons.map((r) => say(`officer.report.reason.${r}`)).join(', ')} ${f.at.slice(0, 10)}${action}`,
        );
    }
    if (w.farmers.length > 25) doc.fontSize(9).text(say('officer.report.more', { count: w.farmers.length - 25 }));
  }
  doc.end();
  return done;
}
