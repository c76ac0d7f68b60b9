import { lazy, useState } from 'react';
import { Anchor, Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { Booking } from '@kutu/contract';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { routes } from '../../../config/routes.ts';
import { OnDemand } from '../../../components/OnDemand.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { useMyBookings } from '../../../api/consultations.ts';
import { CalendarButton, canCancel } from '../components/CalendarButton.tsx';
import {
  type BookingFilter,
  BookingBadge,
  BookingStatusFilter,
  CardPager,
  ListState,
  MeetingLines,
  PeriodLines,
  useClampPage,
} from '../components/shared.tsx';

const CancelDialog = lazy(() => import('../components/CancelDialog.tsx').then((m) => ({ default: m.CancelDialog })));
const RescheduleDialog = lazy(() =>
  import('../components/RescheduleDialog.tsx').then((m) => ({ default: m.RescheduleDialog })),
);

const PAGE_SIZE = 12;

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
  const [filter, setFilter] = useState<BookingFilter>('all');
  const [page, setPage] = useState(1);
  const bookings = useMyBookings({ page, page_size: PAGE_SIZE, status: filter === 'all' ? undefined : filter });
  const results = bookings.data?.results ?? [];
  const [cancelling, setCancelling] = useState<Booking | null>(null);
  const [moving, setMoving] = useState<Booking | null>(null);
  useClampPage(page, setPage, bookings.data?.count, PAGE_SIZE);

  return (
    <Stack>
      <Group justify="space-between" wrap="wrap">
        <Title order={1} size="h2">
          {t('consultations.myBookings.title')}
        </Title>
        <BookingStatusFilter
          value={filter}
          onChange={(v) => {
            setFilter(v);
            setPage(1);
          }}
        />
      </Group>
      <ListState
        isPending={bookings.isPending}
        error={bookings.error}
        isEmpty={results.length === 0}
        emptyText={t('consultations.myBookings.empty')}
        onRetry={() => void bookings.refetch()}
      >
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
          {results.map((b) => (
            <MyBookingCard key={b.id} booking={b} onCancel={() => setCancelling(b)} onReschedule={() => setMoving(b)} />
          ))}
        </SimpleGrid>
        <CardPager page={page} pageSize={PAGE_SIZE} total={bookings.data?.count ?? 0} onChange={setPage} />
      </ListState>
      <OnDemand when={cancelling !== null}>
        <CancelDialog booking={cancelling} viewer="farmer" onClose={() => setCancelling(null)} />
      </OnDemand>
      <OnDemand when={moving !== null}>
        <RescheduleDialog booking={moving} onClose={() => setMoving(null)} />
      </OnDemand>
      <Anchor component={Link} to={routes.slots} size="sm">
        {t('consultations.myBookings.browse')}
      </Anchor>
    </Stack>
  );
}
