import { meetingModeLabels, type NotificationType } from '@kutu/contract';
import type { ModuleDeps } from '../../deps.ts';
import type { BookingRow } from './consultations.repo.ts';
import { formatEat } from './time.ts';

interface Person {
  id: number;
  /** Null for a farmer who signed up by phone: the SMS is then the only message outside the app. */
  email: string | null;
  phone: string;
}
interface Notice {
  type: NotificationType;
  /** In the app and in the email body. */
  message: string;
  /** Short: one SMS. */
  sms: string;
  subject: string;
}

function how(row: BookingRow): string {
  const mode = meetingModeLabels[row.mode].toLowerCase();
  if (row.mode === 'farm_visit' && row.place) return `${mode} at ${row.place}`;
  if (row.mode === 'video' && row.videoUrl) return `${mode}: ${row.videoUrl}`;
  return mode;
}

/**
 * Tells one side of a booking what happened: in the app, by SMS and by email (SMS only without an
 * email address). The in-app notification is the record; a failed SMS or email does not undo the
 * action that was already committed.
 */
export function createConsultationNotices({
  notifications,
  mailer,
  sms,
  config,
}: Pick<ModuleDeps, 'notifications' | 'mailer' | 'sms' | 'config'>) {
  const link = (role: 'farmer' | 'expert') =>
    `${config.publicUrl}/account/addresses/${role === 'farmer' ? 'my-bookings' : 'bookings'}`;

  async function tell(to: Person, role: 'farmer' | 'expert', notice: Notice, data: Record<string, unknown>) {
    await notifications.notify(to.id, notice.type, notice.message, data);
    await Promise.allSettled([
      sms.send(to.phone, notice.sms),
      to.email
        ? mailer.send({
            to: to.email,
            subject: notice.subject,
            text: `${notice.message}\n\nSee it in Kutu: ${link(role)}`,
          })
        : Promise.resolve(),
    ]);
  }
  const farmer = (row: BookingRow): Person => ({ id: row.farmerId, email: row.farmerEmail, phone: row.farmerPhone });
  const expert = (row: BookingRow): Person => ({ id: row.expertId, email: row.expertEmail, phone: row.expertPhone });

  return {
    approved(row: BookingRow) {
      const when = formatEat(row.selectedDate!);
      return tell(
        farmer(row),
        'farmer',
        {
          type: 'booking_approved',
          subject: 'Your Kutu consultation is confirmed',
          message: `${row.expertUsername} approved your booking about "${row.topic}". Your consultation is scheduled for ${when}, by ${how(row)}. Expert's phone: ${row.expertPhone}.`,
          sms: `Kutu: consultation confirmed ${when}, ${how(row)}. Expert ${row.expertUsername} ${row.expertPhone}`,
        },
        { booking_id: row.id, selected_date: row.selectedDate!.toISOString() },
      );
    },

    rejected(row: BookingRow) {
      const reason = row.reason ? ` Reason: ${row.reason}` : '';
      return tell(
        farmer(row),
        'farmer',
        {
          type: 'booking_rejected',
          subject: 'Your Kutu booking was not accepted',
          message: `${row.expertUsername} could not take your booking for ${formatEat(row.slotStart)}.${reason} You can book another time.`,
          sms: `Kutu: ${row.expertUsername} could not take your booking for ${formatEat(row.slotStart)}. Book another time in the app.`,
        },
        { booking_id: row.id, reason: row.reason },
      );
    },

    /** Tells the side that did not cancel. */
    cancelled(row: BookingRow) {
      const when = formatEat(row.selectedDate ?? row.slotStart);
      const byFarmer = row.cancelledBy === 'farmer';
      const reason = row.reason ? ` Reason: ${row.reason}` : '';
      const who = byFarmer ? `Farmer ${row.farmerUsername}` : `Expert ${row.expertUsername}`;
      return tell(
        byFarmer ? expert(row) : farmer(row),
        byFarmer ? 'expert' : 'farmer',
        {
          type: 'booking_cancelled',
          subject: 'A Kutu consultation was cancelled',
          message: `${who} cancelled the consultation about "${row.topic}" on ${when}.${reason}${byFarmer ? ' The slot is open for booking again.' : ' You can book another time.'}`,
          sms: `Kutu: ${who} cancelled the consultation on ${when}.${reason}`.slice(0, 160),
        },
        { booking_id: row.id, cancelled_by: row.cancelledBy },
      );
    },

    /** Both sides, `lead` ('24 hours', '1 hour') before the start. */
    async reminder(row: BookingRow, lead: string) {
      const when = formatEat(row.selectedDate!);
      const data = { booking_id: row.id, selected_date: row.selectedDate!.toISOString() };
      await tell(
        farmer(row),
        'farmer',
        {
          type: 'booking_reminder',
          subject: `Reminder: Kutu consultation in ${lead}`,
          message: `Reminder: your consultation with ${row.expertUsername} about "${row.topic}" is at ${when}, by ${how(row)}. Expert's phone: ${row.expertPhone}.`,
          sms: `Kutu reminder: consultation ${when}, ${how(row)}. Expert ${row.expertUsername} ${row.expertPhone}`,
        },
        data,
      );
      await tell(
        expert(row),
        'expert',
        {
          type: 'booking_reminder',
          subject: `Reminder: Kutu consultation in ${lead}`,
          message: `Reminder: your consultation with farmer ${row.farmerUsername} about "${row.topic}" is at ${when}, by ${how(row)}. Farmer's phone: ${row.farmerPhone}.`,
          sms: `Kutu reminder: consultation ${when}, ${how(row)}. Farmer ${row.farmerUsername} ${row.farmerPhone}`,
        },
        data,
      );
    },
  };
}
