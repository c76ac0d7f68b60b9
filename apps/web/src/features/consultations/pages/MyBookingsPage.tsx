import { useState } from 'react';
import { Anchor, Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconCalendarPlus } from '@tabler/icons-react';
import type { Booking } from '@kutu/contract';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { routes } from '../../../app/routes.ts';
import { errorMessage } from '../../../lib/api.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { notifyError } from '../../../lib/notify.ts';
import { downloadCalendar, useMyBookings } from '../api/consultations.ts';
import {
  type BookingFilter,
  BookingBadge,
  BookingStatusFilter,
  CardPager,
  ListState,
  PeriodLines,
  useClampPage,
} from '../components/shared.tsx';

const PAGE_SIZE = 12;

function MyBookingCard({ booking }: { booking: Booking }) {
  const { t } = useTranslation();
  const [downloading, setDownloading] = useState(false);
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
    <Card withBorder radius="md" padding="md" component="article" aria-label={booking.expert.username}>
      <Group justify="space-between" mb="xs">
        <Text fw={700}>{booking.expert.username}</Text>
        <BookingBadge status={booking.status} />
      </Group>
      <Stack gap={4}>
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
          <Text size="sm" fw={600} c="green.8">
            {t('consultations.myBookings.scheduled', { date: formatDateTime(booking.selected_date) })}
          </Text>
        )}
        {booking.status === 'rejected' && (
          <Text size="sm" c="red.8">
            {booking.reason
              ? t('consultations.reason', { reason: booking.reason })
              : t('consultations.myBookings.noReason')}
          </Text>
        )}
      </Stack>
      {booking.status === 'approved' && (
        <Button
          mt="md"
          variant="light"
          leftSection={<IconCalendarPlus size={16} />}
          onClick={download}
          loading={downloading}
        >
          {t('consultations.myBookings.calendar')}
        </Button>
      )}
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
            <MyBookingCard key={b.id} booking={b} />
          ))}
        </SimpleGrid>
        <CardPager page={page} pageSize={PAGE_SIZE} total={bookings.data?.count ?? 0} onChange={setPage} />
      </ListState>
      <Anchor component={Link} to={routes.slots} size="sm">
        {t('consultations.myBookings.browse')}
      </Anchor>
    </Stack>
  );
}
