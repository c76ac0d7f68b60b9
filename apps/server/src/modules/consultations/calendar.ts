import { createEvent, type EventAttributes } from 'ics';
import type { Language } from '@kutu/contract';
import { t } from '../../i18n/i18n.ts';
import { AppError } from '../../lib/errors.ts';
import type { BookingRow } from './consultations.repo.ts';
import { how } from './notices.ts';

/** A calendar event lasts an hour from the scheduled time, or until the slot ends if that is sooner. */
const MEETING_MS = 60 * 60_000;

/**
 * The booking as an iCalendar (RFC 5545) file for either side, its text in `language`. The UID is the
 * booking's, so a calendar replaces its copy when SEQUENCE rises; a cancelled booking is METHOD:CANCEL +
 * STATUS:CANCELLED.
 */
export function bookingCalendar(row: BookingRow, viewer: 'farmer' | 'expert', language: Language, now: Date): string {
  const when = row.selectedDate!;
  const start = when.getTime();
  const end = Math.min(start + MEETING_MS, row.slotEnd.getTime());
  const cancelled = row.status === 'cancelled';
  const other =
    viewer === 'farmer'
      ? t(language, 'consultations.calendar.expert', { name: row.expertUsername })
      : t(language, 'consultations.calendar.farmer', { name: row.farmerUsername });
  const otherPhone = viewer === 'farmer' ? row.expertPhone : row.farmerPhone;
  const lines = [
    t(language, 'consultations.calendar.topic', { topic: row.topic }),
    t(language, 'consultations.calendar.how', { how: how(row) }),
    t(language, viewer === 'farmer' ? 'consultations.calendar.expertPhone' : 'consultations.calendar.farmerPhone', {
      phone: otherPhone,
    }),
    t(language, 'consultations.calendar.scheduled', { when }),
  ];
  const event: EventAttributes = {
    uid: `kutu-booking-${row.id}@kutu`,
    sequence: row.sequence,
    method: cancelled ? 'CANCEL' : 'REQUEST',
    title: t(language, 'consultations.calendar.title', { other, topic: row.topic }),
    description: lines.join('\n'),
    start,
    startInputType: 'utc',
    startOutputType: 'utc',
    end,
    endInputType: 'utc',
    endOutputType: 'utc',
    status: cancelled ? 'CANCELLED' : 'CONFIRMED',
    busyStatus: cancelled ? 'FREE' : 'BUSY',
    productId: 'kutu/consultations',
    organizer: { name: row.expertUsername, email: row.expertEmail },
    // A farmer who signed up by phone has no address to name as the attendee.
    attendees: row.farmerEmail
      ? [
          {
            name: row.farmerUsername,
            email: row.farmerEmail,
            rsvp: false,
            partstat: 'ACCEPTED',
            role: 'REQ-PARTICIPANT',
          },
        ]
      : [],
    ...(row.mode === 'farm_visit' && row.place ? { location: row.place } : {}),
    ...(row.mode === 'phone'
      ? { location: t(language, 'consultations.calendar.phoneLocation', { phone: otherPhone }) }
      : {}),
    ...(row.mode === 'video' && row.videoUrl ? { url: row.videoUrl, location: row.videoUrl } : {}),
  };
  // DTSTAMP from the app's clock; ics takes `timestamp` though its types do not list it.
  const { error, value } = createEvent({ ...event, timestamp: now.getTime() } as EventAttributes);
  if (error || !value) throw new AppError('INTERNAL_ERROR', 'errors.consultations.calendarFailed', 500);
  return foldOctets(value);
}

/**
 * RFC 5545 §3.1 folds lines at 75 octets; ics folds at 75 characters, so a line with non-ASCII text
 * (an em dash, a Luganda name) ran over. Unfold, then fold again by bytes without splitting a character.
 */
export function foldOctets(ics: string): string {
  const lines = ics.replace(/\r\n[ \t]/g, '').split('\r\n');
  return lines
    .map((line) => {
      const parts: string[] = [];
      let current = '';
      let bytes = 0;
      for (const ch of line) {
        const size = Buffer.byteLength(ch);
        // The first line holds 75 octets; continuation lines 74 after their leading space.
        if (bytes + size > (parts.length === 0 ? 75 : 74)) {
          parts.push(current);
          current = '';
          bytes = 0;
        }
        current += ch;
        bytes += size;
      }
      parts.push(current);
      return parts.join('\r\n ');
    })
    .join('\r\n');
}
