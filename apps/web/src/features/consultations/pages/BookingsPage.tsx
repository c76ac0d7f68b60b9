import { lazy, useState } from 'react';
import { Button, Card, Group, Stack, Text } from '@mantine/core';
import type { Booking } from '@kutu/contract';
import { useTranslation } from 'react-i18next';
import { OnDemand } from '../../../components/OnDemand.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { useExpertBookings } from '../../../api/consultations.ts';
import { BookingBadge, MeetingLines, PeriodLines } from '../components/shared.tsx';
import { BookingList } from '../components/BookingList.tsx';
import { CalendarButton, canCancel } from '../components/CalendarButton.tsx';

const CancelDialog = lazy(() => import('../components/CancelDialog.tsx').then((m) => ({ default: m.CancelDialog })));
const ApproveDialog = lazy(() => import('../components/ManageDialogs.tsx').then((m) => ({ default: m.ApproveDialog })));
const RejectDialog = lazy(() => import('../components/ManageDialogs.tsx').then((m) => ({ default: m.RejectDialog })));

function BookingCard({
  booking,
  onApprove,
  onReject,
  onCancel,
}: {
  booking: Booking;
  onApprove: () => void;
  onReject: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Card withBorder radius="md" padding="md" component="article" aria-label={booking.farmer.username}>
      <Group justify="space-between" mb="xs">
        <Text fw={700}>{booking.farmer.username}</Text>
        <BookingBadge status={booking.status} />
      </Group>
      <Text size="sm" c="dimmed">
        {booking.farmer.email}
      </Text>
      <Stack gap={4} mt="sm">
        <MeetingLines booking={booking} viewer="expert" />
        <PeriodLines
          label={t('consultations.bookings.period')}
          start={booking.slot.start_time}
          end={booking.slot.end_time}
        />
        <Text size="sm">
          {booking.selected_date
            ? t('consultations.bookings.selected', { date: formatDateTime(booking.selected_date) })
            : t('consultations.bookings.selectedNotSet')}
        </Text>
        {(booking.status === 'rejected' || booking.status === 'cancelled') && booking.reason && (
          <Text size="sm" c="dimmed">
            {t('consultations.reason', { reason: booking.reason })}
          </Text>
        )}
      </Stack>
      {booking.status === 'pending' && (
        <Group mt="md" grow>
          <Button variant="light" color="red" onClick={onReject}>
            {t('consultations.bookings.cancel')}
          </Button>
          <Button onClick={onApprove}>{t('consultations.bookings.approve')}</Button>
        </Group>
      )}
      <Stack mt="md" gap="xs">
        <CalendarButton booking={booking} />
        {booking.status === 'approved' && canCancel(booking) && (
          <Button variant="light" color="red" onClick={onCancel}>
            {t('consultations.cancel.button')}
          </Button>
        )}
      </Stack>
    </Card>
  );
}

/** Bookings (expert): farmers' requests on your slots; approve with a scheduled time or reject. */
export default function BookingsPage() {
  const { t } = useTranslation();
  const [approving, setApproving] = useState<Booking | null>(null);
  const [rejecting, setRejecting] = useState<Booking | null>(null);
  const [cancelling, setCancelling] = useState<Booking | null>(null);

  return (
    <BookingList
      title={t('consultations.bookings.title')}
      emptyText={t('consultations.bookings.empty')}
      useBookings={useExpertBookings}
      card={(b) => (
        <BookingCard
          booking={b}
          onApprove={() => setApproving(b)}
          onReject={() => setRejecting(b)}
          onCancel={() => setCancelling(b)}
        />
      )}
    >
      <OnDemand when={approving !== null}>
        <ApproveDialog booking={approving} onClose={() => setApproving(null)} />
      </OnDemand>
      <OnDemand when={rejecting !== null}>
        <RejectDialog booking={rejecting} onClose={() => setRejecting(null)} />
      </OnDemand>
      <OnDemand when={cancelling !== null}>
        <CancelDialog booking={cancelling} viewer="expert" onClose={() => setCancelling(null)} />
      </OnDemand>
    </BookingList>
  );
}

// With the page's chunk: its feature's strings (lib/locale-parts.ts `FEATURE_SECTIONS`); the router waits for them.
export { screenStringsReady } from '../../../lib/consultations-strings.ts';
