import { lazy, useState } from 'react';
import { Anchor, Button, Card, Group, Stack, Text } from '@mantine/core';
import type { Booking } from '@kutu/contract';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { routes } from '../../../config/routes.ts';
import { OnDemand } from '../../../components/OnDemand.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { useMyBookings } from '../../../api/consultations.ts';
import { CalendarButton, canCancel } from '../components/CalendarButton.tsx';
import { BookingBadge, MeetingLines, PeriodLines } from '../components/shared.tsx';
import { BookingList } from '../components/BookingList.tsx';

const CancelDialog = lazy(() => import('../components/CancelDialog.tsx').then((m) => ({ default: m.CancelDialog })));
const RescheduleDialog = lazy(() =>
  import('../components/RescheduleDialog.tsx').then((m) => ({ default: m.RescheduleDialog })),
);

function MyBookingCard({
  booking,
  onCancel,
  onReschedule,
}: {
  booking: Booking;
  onCancel: () => void;
  onReschedule: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Card withBorder radius="md" padding="md" component="article" aria-label={booking.expert.username}>
      <Group justify="space-between" mb="xs">
        <Text fw={700}>{booking.expert.username}</Text>
        <BookingBadge status={booking.status} />
      </Group>
      <Stack gap={4}>
        <MeetingLines booking={booking} viewer="farmer" />
        <PeriodLines
          label={t('consultations.slots.period')}
          start={booking.slot.start_time}
          end={booking.slot.end_time}
        />
        {booking.status === 'pending' && (
          <Text size="sm" c="dimmed">
            {t('consultations.myBookings.waiting')}
          </Text>
        )}
        {booking.status === 'approved' && booking.selected_date && (
          <Text size="sm" fw={600} c="green.9">
            {t('consultations.myBookings.scheduled', { date: formatDateTime(booking.selected_date) })}
          </Text>
        )}
        {booking.status === 'rejected' && (
          <Text size="sm" c="red.9">
            {booking.reason
              ? t('consultations.reason', { reason: booking.reason })
              : t('consultations.myBookings.noReason')}
          </Text>
        )}
        {booking.status === 'cancelled' && (
          <Text size="sm" c="dimmed">
            {t(booking.cancelled_by === 'expert' ? 'consultations.cancel.byExpert' : 'consultations.cancel.byYou')}
            {booking.reason ? ` ${t('consultations.reason', { reason: booking.reason })}` : ''}
          </Text>
        )}
      </Stack>
      <Stack mt="md" gap="xs">
        <CalendarButton booking={booking} />
        {canCancel(booking) && (
          <Group grow>
            <Button variant="light" onClick={onReschedule}>
              {t('consultations.reschedule.button')}
            </Button>
            <Button variant="light" color="red" onClick={onCancel}>
              {t('consultations.cancel.button')}
            </Button>
          </Group>
        )}
      </Stack>
    </Card>
  );
}

/** My bookings (farmer): each booking's status, the scheduled time once approved, the reason if rejected. */
export default function MyBookingsPage() {
  const { t } = useTranslation();
  const [cancelling, setCancelling] = useState<Booking | null>(null);
  const [moving, setMoving] = useState<Booking | null>(null);

  return (
    <BookingList
      title={t('consultations.myBookings.title')}
      emptyText={t('consultations.myBookings.empty')}
      useBookings={useMyBookings}
      card={(b) => <MyBookingCard booking={b} onCancel={() => setCancelling(b)} onReschedule={() => setMoving(b)} />}
    >
      <OnDemand when={cancelling !== null}>
        <CancelDialog booking={cancelling} viewer="farmer" onClose={() => setCancelling(null)} />
      </OnDemand>
      <OnDemand when={moving !== null}>
        <RescheduleDialog booking={moving} onClose={() => setMoving(null)} />
      </OnDemand>
      <Anchor component={Link} to={routes.slots} size="sm">
        {t('consultations.myBookings.browse')}
      </Anchor>
    </BookingList>
  );
}

// With the page's chunk: its feature's strings (lib/locale-parts.ts `FEATURE_SECTIONS`); the router waits for them.
export { screenStringsReady } from '../../../lib/consultations-strings.ts';
