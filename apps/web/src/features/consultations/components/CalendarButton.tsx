import { useState } from 'react';
import { Button } from '@mantine/core';
import { IconCalendarPlus } from '@tabler/icons-react';
import type { Booking } from '@kutu/contract';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../lib/api.ts';
import { notifyError } from '../../../lib/notify.ts';
import { downloadCalendar } from '../../../api/consultations.ts';

/** The booking's .ics: an event once approved, its cancellation once cancelled. */
export function CalendarButton({ booking }: { booking: Booking }) {
  const { t } = useTranslation();
  const [downloading, setDownloading] = useState(false);
  if (!booking.selected_date || (booking.status !== 'approved' && booking.status !== 'cancelled')) return null;
  const download = async () => {
    setDownloading(true);
    try {
      await downloadCalendar(booking.id);
    } catch (err) {
      notifyError(errorMessage(err));
    } finally {
      setDownloading(false);
    }
  };
  return (
    <Button variant="light" leftSection={<IconCalendarPlus size={16} />} onClick={download} loading={downloading}>
      {t(booking.status === 'approved' ? 'consultations.myBookings.calendar' : 'consultations.cancel.calendar')}
    </Button>
  );
}

/** Whether the booking may still be cancelled (the server checks again). */
export function canCancel(booking: Booking, now = Date.now()): boolean {
  const start = new Date(booking.selected_date ?? booking.slot.start_time).getTime();
  return (booking.status === 'pending' || booking.status === 'approved') && start > now;
}
