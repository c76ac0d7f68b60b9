import type { Language, NotificationType } from '@kutu/contract';
import type { ModuleDeps } from '../../deps.ts';
import { type Message, message, render, t } from '../../i18n/i18n.ts';
import { smsStopped } from '../../lib/sms-stop.ts';
import type { BookingRow } from './consultations.repo.ts';

interface Person {
  id: number;
  /** Null for a farmer who signed up by phone: the SMS is then the only message outside the app. */
  email: string | null;
  phone: string;
}
interface Notice {
  type: NotificationType;
  /** In the app and in the email body. */
  message: Message;
  /** Short: one SMS. */
  sms: Message;
  subject: Message;
  /** Cut the SMS at 160 characters (a free-text reason can make it long). */
  clipSms?: boolean;
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
 * Tells one side of a booking what happened: in the app, by SMS and by email (SMS only without an
 * email address), each in that person's language. The in-app notification is the record; a failed SMS
 * or email does not undo the action that was already committed.
 */
export function createConsultationNotices({
  notifications,
  mailer,
  sms,
  config,
  db,
}: Pick<ModuleDeps, 'notifications' | 'mailer' | 'sms' | 'config' | 'db'>) {
  const link = (role: 'farmer' | 'expert') =>
    `${config.publicUrl}/account/addresses/${role === 'farmer' ? 'my-bookings' : 'bookings'}`;

  async function tell(to: Person, role: 'farmer' | 'expert', notice: Notice, data: Record<string, unknown>) {
    await notifications.notify(to.id, notice.type, notice.message, data);
    const language: Language = await notifications.languageOf(to.id);
    const text = render(language, notice.message);
    const stopped = await smsStopped(db, to.phone);
    await Promise.allSettled([
      stopped
        ? Promise.resolve()
        : sms.send(
            to.phone,
            notice.clipSms ? render(language, notice.sms).slice(0, 160) : render(language, notice.sms),
          ),
      to.email
        ? mailer.send({
            to: to.email,
            subject: render(language, notice.subject),
            text: `${text}\n\n${t(language, 'consultations.seeInKutu', { link: link(role) })}`,
          })
        : Promise.resolve(),
    ]);
  }
  const farmer = (row: BookingRow): Person => ({ id: row.farmerId, email: row.farmerEmail, phone: row.farmerPhone });
  const expert = (row: BookingRow): Person => ({ id: row.expertId, email: row.expertEmail, phone: row.expertPhone });

  return {
    approved(row: BookingRow) {
      const values = { when: row.selectedDate!, how: how(row), expert: row.expertUsername, phone: row.expertPhone };
      return tell(
        farmer(row),
        'farmer',
        {
          type: 'booking_approved',
          subject: message('consultations.approved.subject'),
          message: message('consultations.approved.message', { ...values, topic: row.topic }),
          sms: message('consultations.approved.sms', values),
        },
        { booking_id: row.id, selected_date: row.selectedDate!.toISOString() },
      );
    },

    rejected(row: BookingRow) {
      const values = { expert: row.expertUsername, when: row.slotStart };
      return tell(
        farmer(row),
        'farmer',
        {
          type: 'booking_rejected',
          subject: message('consultations.rejected.subject'),
          message: message('consultations.rejected.message', { ...values, reason: reasonOf(row) }),
          sms: message('consultations.rejected.sms', values),
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
        byFarmer ? expert(row) : farmer(row),
        byFarmer ? 'expert' : 'farmer',
        {
          type: 'booking_cancelled',
          subject: message('consultations.cancelled.subject'),
          message: message(
            byFarmer ? 'consultations.cancelled.messageToExpert' : 'consultations.cancelled.messageToFarmer',
            { ...values, topic: row.topic },
          ),
          sms: message('consultations.cancelled.sms', values),
          clipSms: true,
        },
        { booking_id: row.id, cancelled_by: row.cancelledBy },
      );
    },

    /** Both sides, `lead` (24 hours, 1 hour) before the start. */
    async reminder(row: BookingRow, lead: Message) {
      const values = { when: row.selectedDate!, how: how(row), topic: row.topic };
      const data = { booking_id: row.id, selected_date: row.selectedDate!.toISOString() };
      const subject = message('consultations.reminder.subject', { lead });
      const toFarmer = { ...values, expert: row.expertUsername, phone: row.expertPhone };
      await tell(
        farmer(row),
        'farmer',
        {
          type: 'booking_reminder',
          subject,
          message: message('consultations.reminder.toFarmer', toFarmer),
          sms: message('consultations.reminder.smsToFarmer', toFarmer),
        },
        data,
      );
      const toExpert = { ...values, farmer: row.farmerUsername, phone: row.farmerPhone };
      await tell(
        expert(row),
        'expert',
        {
          type: 'booking_reminder',
          subject,
          message: message('consultations.reminder.toExpert', toExpert),
          sms: message('consultations.reminder.smsToExpert', toExpert),
        },
        data,
      );
    },
  };
}
