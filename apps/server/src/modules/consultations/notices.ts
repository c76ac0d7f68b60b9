import type { NotificationType } from '@kutu/contract';
import type { ModuleDeps } from '../../deps.ts';
import { type Message, message } from '../../i18n/i18n.ts';
import { type SmsMessage, smsMessage } from '../../i18n/sms-texts.ts';
import type { Tell } from '../../lib/deliverer.ts';
import type { BookingRow } from './consultations.repo.ts';

type Role = 'farmer' | 'expert';
interface Notice {
  type: NotificationType;
  /** What happened, e.g. `approved`: with the booking, the message's key (told once). */
  event: string;
  /** In the app and in the email body. */
  message: Message;
  /** Short: one SMS where it fits (a free-text reason can make it longer: it is then split, not cut). */
  sms: SmsMessage;
  subject: Message;
}

/** How the consultation happens: "farm visit at Nakaseke", "video call: https://…". */
export function how(row: BookingRow): Message {
  const mode = message(`consultations.modes.${row.mode}`);
  if (row.mode === 'farm_visit' && row.place) return message('consultations.howAtPlace', { mode, place: row.place });
  if (row.mode === 'video' && row.videoUrl) return message('consultations.howVideo', { mode, url: row.videoUrl });
  return mode;
}
const reasonOf = (row: BookingRow) => (row.reason ? message('consultations.reason', { reason: row.reason }) : '');

/**
 * What one side of a booking is told: in the app, by SMS and by email (SMS only without an email
 * address), each in that person's language; the caller tells it in the transaction of the change
 * (`deps.delivery`, docs/decisions/0050).
 */
export function createConsultationNotices({ config }: Pick<ModuleDeps, 'config'>) {
  const link = (role: Role) =>
    `${config.publicUrl}/account/addresses/${role === 'farmer' ? 'my-bookings' : 'bookings'}`;

  const message_ = (row: BookingRow, role: Role, notice: Notice, data: Record<string, unknown>): Tell => ({
    to: role === 'farmer' ? row.farmerId : row.expertId,
    key: `booking:${row.id}:${notice.event}:${role}`,
    kind: 'service',
    app: { type: notice.type, text: notice.message, data },
    sms: notice.sms,
    email: { subject: notice.subject, text: notice.message, link: link(role) },
  });
  const tell = message_;

  return {
    approved(row: BookingRow) {
      const values = { when: row.selectedDate!, how: how(row), expert: row.expertUsername, phone: row.expertPhone };
      return tell(
        row,
        'farmer',
        {
          type: 'booking_approved',
          event: 'approved',
          subject: message('consultations.approved.subject'),
          message: message('consultations.approved.message', { ...values, topic: row.topic }),
          sms: smsMessage('consultations.approved.sms', values),
        },
        { booking_id: row.id, selected_date: row.selectedDate!.toISOString() },
      );
    },

    rejected(row: BookingRow) {
      const values = { expert: row.expertUsername, when: row.slotStart };
      return tell(
        row,
        'farmer',
        {
          type: 'booking_rejected',
          event: 'rejected',
          subject: message('consultations.rejected.subject'),
          message: message('consultations.rejected.message', { ...values, reason: reasonOf(row) }),
          sms: smsMessage('consultations.rejected.sms', values),
        },
        { booking_id: row.id, reason: row.reason },
      );
    },

    /** Tells the side that did not cancel. */
    cancelled(row: BookingRow) {
      const byFarmer = row.cancelledBy === 'farmer';
      const values = {
        who: byFarmer
          ? message('consultations.cancelled.byFarmer', { name: row.farmerUsername })
          : message('consultations.cancelled.byExpert', { name: row.expertUsername }),
        when: row.selectedDate ?? row.slotStart,
        reason: reasonOf(row),
      };
      return tell(
        row,
        byFarmer ? 'expert' : 'farmer',
        {
          type: 'booking_cancelled',
          event: 'cancelled',
          subject: message('consultations.cancelled.subject'),
          message: message(
            byFarmer ? 'consultations.cancelled.messageToExpert' : 'consultations.cancelled.messageToFarmer',
            { ...values, topic: row.topic },
          ),
          sms: smsMessage('consultations.cancelled.sms', values),
        },
        { booking_id: row.id, cancelled_by: row.cancelledBy },
      );
    },

    /**
     * The reminders of both sides, `lead` (24 hours, 1 hour: `kind`) before the start, to tell in the
     * transaction that claims them.
     */
    reminders(row: BookingRow, kind: '24h' | '1h', lead: Message): Tell[] {
      const values = { when: row.selectedDate!, how: how(row), topic: row.topic };
      const data = { booking_id: row.id, selected_date: row.selectedDate!.toISOString() };
      const subject = message('consultations.reminder.subject', { lead });
      const toFarmer = { ...values, expert: row.expertUsername, phone: row.expertPhone };
      const toExpert = { ...values, farmer: row.farmerUsername, phone: row.farmerPhone };
      const event = `reminder-${kind}`;
      return [
        message_(
          row,
          'farmer',
          {
            type: 'booking_reminder',
            event,
            subject,
            message: message('consultations.reminder.toFarmer', toFarmer),
            sms: smsMessage('consultations.reminder.smsToFarmer', toFarmer),
          },
          data,
        ),
        message_(
          row,
          'expert',
          {
            type: 'booking_reminder',
            event,
            subject,
            message: message('consultations.reminder.toExpert', toExpert),
            sms: smsMessage('consultations.reminder.smsToExpert', toExpert),
          },
          data,
        ),
      ];
    },
  };
}
