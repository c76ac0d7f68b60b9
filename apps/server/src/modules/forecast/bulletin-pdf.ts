import PDFDocument from 'pdfkit';
import type { Language } from '@kutu/contract';
import { type MessageKey, type Params, t } from '../../i18n/i18n.ts';
import type { Bulletin, BulletinRow } from './bulletin.ts';

/** The table's columns: heading key, x and width in points on an A4 page with 40 pt margins. */
const COLUMNS: [MessageKey, number, number][] = [
  ['forecast.bulletin.columns.place', 40, 24],
  ['forecast.bulletin.columns.district', 64, 112],
  ['forecast.bulletin.columns.crop', 176, 44],
  ['forecast.bulletin.columns.risk', 220, 70],
  ['forecast.bulletin.columns.highDays', 290, 96],
  ['forecast.bulletin.columns.confirmed', 386, 56],
  ['forecast.bulletin.columns.walked', 442, 56],
  ['forecast.bulletin.columns.median', 498, 57],
];
/** One table row's height: every row is drawn whole on one page (docs/decisions/0131). */
const ROW = 11;

/** A median incidence as a percentage, as officers read it ('' when nothing was walked). */
export const medianPercent = (m: number | null) => (m === null ? '' : `${Math.round(m * 100)}%`);

/** The high days in a narrow column: one day, or the first and the last with how many ("12-01 … 12-07 (7)"). */
const highDaysText = (days: string[]) =>
  days.length <= 1 ? (days[0]?.slice(5) ?? '') : `${days[0].slice(5)} … ${days.at(-1)!.slice(5)} (${days.length})`;

/**
 * The national bulletin as PDF, in the reader's language (docs/decisions/0122): the districts to walk first,
 * then the table of every district and crop, as the CSV lists them. Days and codes stay as the CSV has them.
 */
export function bulletinPdf(b: Bulletin, generatedAt: Date, language: Language): Promise<Buffer> {
  const say = (key: MessageKey, params?: Params) => t(language, key, params);
  const doc = new PDFDocument({ size: 'A4', margin: 40, info: { Title: say('forecast.bulletin.title') } });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const crop = (r: BulletinRow) => say(`officer.report.crops.${r.crop}`);
  const place = (r: BulletinRow) => `${r.name} (${r.district})`;

  doc.fillColor('#111').fontSize(18).text(say('forecast.bulletin.title'));
  doc
    .fontSize(10)
    .fillColor('#444')
    .text(say('forecast.bulletin.made', { when: generatedAt }))
    .text(b.runAt ? say('forecast.bulletin.runAt', { when: b.runAt }) : say('forecast.bulletin.noRun'));
  // How good the forecast has been, with the weeks behind it and the week the sweep scored it (0129, 0137).
  if (b.score === null) doc.text(say('forecast.bulletin.notScored'));
  else if (b.score) {
    const n = (x: number | null) => (x === null ? '-' : x.toFixed(2));
    const s = b.score;
    doc.text(
      s.cases === 0
        ? say('forecast.bulletin.noScore')
        : say('forecast.bulletin.score', {
            weeks: s.weeks,
            cases: s.cases,
            hit: n(s.hitRate),
            far: n(s.falseAlarmRatio),
            peirce: n(s.peirce),
            skill: n(s.brierSkill),
          }),
    );
    doc.text(say('forecast.bulletin.scoredWeek', { week: s.weekStart }));
  }
  doc.moveDown(0.5).fillColor('#111').fontSize(12).text(say('forecast.bulletin.walkFirst'));
  const first = b.rows.filter((r) => r.walkFirst);
  if (first.length === 0) doc.fontSize(10).text(say('forecast.bulletin.noneFirst'));
  // The walk-first districts grouped by their high days: the days once per group, not on every line.
  const groups = new Map<string, BulletinRow[]>();
  for (const r of first) {
    const key = highDaysText(r.highDays);
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  for (const [days, rows] of groups) {
    doc.moveDown(0.25).fontSize(10).fillColor('#b45309').text(say('forecast.bulletin.group', { days }));
    doc
      .fillColor('#111')
      .fontSize(9)
      .text(rows.map((r) => `${r.place}. ${place(r)}, ${crop(r)}`).join('; '));
  }
  // Districts whose advisories a person held this week, with why (docs/decisions/0128).
  const held = new Map(b.rows.filter((r) => r.held).map((r) => [r.district, r]));
  if (held.size) {
    doc.moveDown(0.5).fillColor('#111').fontSize(12).text(say('forecast.bulletin.held'));
    for (const r of held.values()) doc.fontSize(10).text(`${place(r)}: ${r.held}`);
  }
  doc.moveDown(0.5).fontSize(12).text(say('forecast.bulletin.all'));

  const header = () => {
    const y = doc.y + 4;
    doc.fontSize(8).fillColor('#444');
    for (const [key, x, width] of COLUMNS) doc.text(say(key), x, y, { width });
    // Room for a heading of three lines (a long one in Kiswahili).
    doc.y = y + 30;
    doc.fillColor('#111');
  };
  if (doc.y + 30 + ROW > doc.page.maxY()) doc.addPage();
  header();
  for (const r of b.rows) {
    // Room for the whole row, or a new page before it: a cell past the margin would make pdfkit open a page per cell.
    if (doc.y + ROW > doc.page.maxY()) {
      doc.addPage();
      header();
    }
    const y = doc.y;
    const cells = [
      String(r.place),
      place(r),
      crop(r),
      say(`officer.report.risk.${r.risk}`),
      highDaysText(r.highDays),
      String(r.confirmed),
      String(r.fieldsWalked),
      medianPercent(r.median),
    ];
    doc.fontSize(8).fillColor(r.walkFirst ? '#b45309' : '#111');
    for (const [i, cell] of cells.entries())
      doc.text(cell, COLUMNS[i][1], y, { width: COLUMNS[i][2], lineBreak: false });
    doc.y = y + ROW;
  }
  doc.end();
  return done;
}
