import { isoWeekLabel, weekStartOf } from '../../lib/iso-weeks.ts';
import type { Language } from '@kutu/contract';
import type { ModuleDeps } from '../../deps.ts';
import { message, t } from '../../i18n/i18n.ts';
import { smsMessage } from '../../i18n/sms-texts.ts';
import { type Bulletin, bulletinCsv } from './bulletin.ts';
import { bulletinPdf } from './bulletin-pdf.ts';

/** Sent from 06:00 in East Africa (03:00 UTC) on Mondays, as the officers' Monday report (extension/weekly.ts). */
export const BULLETIN_MAIL_FROM_HOUR_UTC = 3;
/** The walk-first districts the email's text lists; the attachments hold them all. */
const LISTED = 30;

/** Who reads the bulletin: administrators and national officers (docs/decisions/0122). */
export interface BulletinReader {
  id: number;
  email: string | null;
  language: Language;
  /** Where the email's link leads: the administrators' screen or the officer's week. */
  role: 'admin' | 'officer';
}

/** The walk-first districts as the email's text lists them, in the reader's language. */
function walkFirstList(b: Bulletin, language: Language): string {
  const first = b.rows.filter((r) => r.walkFirst);
  if (first.length === 0) return t(language, 'forecast.bulletin.mail.none');
  const lines = first.slice(0, LISTED).map((r) =>
    t(language, 'forecast.bulletin.mail.line', {
      place: r.place,
      name: r.name,
      district: r.district,
      crop: t(language, `officer.report.crops.${r.crop}`),
      days: r.highDays.join(', '),
    }),
  );
  if (first.length > LISTED) lines.push(t(language, 'officer.report.more', { count: first.length - LISTED }));
  return lines.join('\n');
}

/**
 * The Monday bulletin (docs/decisions/0122) to every administrator and national officer, through the outbox: an
 * in-app notice to each; an email with the walk-first list in its text and the bulletin as CSV and PDF (their
 * language) attached to those with an email address, one SMS with the week and the count to those without.
 * The key names the week: the hourly sweep, a restart or a second process write it once per person and week
 * (the outbox's unique key). Returns how many readers it told.
 */
export function createBulletinMail(
  deps: Pick<ModuleDeps, 'clock' | 'delivery' | 'config'>,
  uses: { bulletin: () => Promise<Bulletin>; readers: () => Promise<BulletinReader[]> },
) {
  return async function sendBulletin(): Promise<number> {
    const now = deps.clock.now();
    if (now.getUTCDay() !== 1 || now.getUTCHours() < BULLETIN_MAIL_FROM_HOUR_UTC) return 0;
    const readers = await uses.readers();
    if (readers.length === 0) return 0;
    const monday = weekStartOf(now);
    const week = isoWeekLabel(monday);
    const b = await uses.bulletin();
    const params = { week, count: b.rows.filter((r) => r.walkFirst).length };
    const csv = {
      filename: `kutu-rust-bulletin-${week}.csv`,
      contentType: 'text/csv',
      content: Buffer.from(bulletinCsv(b)),
    };
    const pdfs = new Map<Language, Buffer>();
    for (const language of new Set(readers.filter((r) => r.email).map((r) => r.language)))
      pdfs.set(language, await bulletinPdf(b, now, language));
    await deps.delivery.tell(
      readers.map((r) => ({
        to: r.id,
        key: `forecast-bulletin:${monday}`,
        kind: 'service' as const,
        app: {
          type: 'rust_bulletin' as const,
          text: message('forecast.bulletin.app', params),
          data: { week_start: monday },
        },
        email: r.email
          ? {
              subject: message('forecast.bulletin.mail.subject', { week }),
              text: message('forecast.bulletin.mail.text', { list: walkFirstList(b, r.language) }),
              link: `${deps.config.publicUrl}/account/${r.role === 'admin' ? 'admin' : 'extension'}`,
              attachments: [
                csv,
                {
                  filename: `kutu-rust-bulletin-${week}.pdf`,
                  contentType: 'application/pdf',
                  content: pdfs.get(r.language)!,
                },
              ],
            }
          : undefined,
        sms: r.email ? undefined : smsMessage('forecast.bulletin.sms', params),
      })),
    );
    return readers.length;
  };
}
