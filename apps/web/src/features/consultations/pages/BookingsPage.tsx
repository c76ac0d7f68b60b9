import { lazy, useState, type FormEvent } from 'react';
import { Button, Card, Group, Modal, SimpleGrid, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import type { Booking } from '@kutu/contract';
import { useTranslation } from 'react-i18next';
import { ApiError, errorMessage } from '../../../lib/api.ts';
import { OnDemand } from '../../../components/OnDemand.tsx';
import { formatDateTime, viewerTimeZone } from '../../../lib/format.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { isoToLocalInput, localInputToIso, useExpertBookings, useManageBooking } from '../api/consultations.ts';
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
import { CalendarButton, canCancel } from '../components/CalendarButton.tsx';

const CancelDialog = lazy(() => import('../components/CancelDialog.tsx').then((m) => ({ default: m.CancelDialog })));

const PAGE_SIZE = 12;

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

function ApproveDialog({ booking, onClose }: { booking: Booking | null; onClose: () => void }) {
  const { t } = useTranslation();
  const manage = useManageBooking();
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | undefined>();
  const close = () => {
    setValue('');
    setError(undefined);
    onClose();
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!booking) return;
    setError(undefined);
    manage.mutate(
      { booking_id: booking.id, action: 'approve', selected_date: localInputToIso(value) },
      {
        onSuccess: () => {
          notifySuccess(t('consultations.bookings.approved'));
          close();
        },
        onError: (err) => {
          if (err instanceof ApiError && err.fields.selected_date) setError(err.fields.selected_date);
          notifyError(errorMessage(err));
        },
      },
    );
  };
  return (
    <Modal opened={booking !== null} onClose={close} title={t('consultations.bookings.approveTitle')} centered>
      {booking && (
        <form onSubmit={submit} noValidate>
          <Stack>
            <Text size="sm">
              {t('consultations.bookings.window', {
                start: formatDateTime(booking.slot.start_time),
                end: formatDateTime(booking.slot.end_time),
              })}
            </Text>
            <TextInput
              type="datetime-local"
              label={t('consultations.bookings.scheduled')}
              description={t('consultations.zoneHint', { zone: viewerTimeZone() })}
              min={isoToLocalInput(booking.slot.start_time)}
              max={isoToLocalInput(booking.slot.end_time)}
              value={value}
              onChange={(e) => setValue(e.currentTarget.value)}
              error={error}
              required
              data-autofocus
            />
            <Button type="submit" loading={manage.isPending}>
              {t('consultations.bookings.schedule')}
            </Button>
          </Stack>
        </form>
      )}
    </Modal>
  );
}

function RejectDialog({ booking, onClose }: { booking: Booking | null; onClose: () => void }) {
  const { t } = useTranslation();
  const manage = useManageBooking();
  const [reason, setReason] = useState('');
  const close = () => {
    setReason('');
    onClose();
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!booking) return;
    manage.mutate(
      { booking_id: booking.id, action: 'reject', reason },
      {
        onSuccess: () => {
          notifySuccess(t('consultations.bookings.rejected'));
          close();
        },
        onError: (err) => notifyError(errorMessage(err)),
      },
    );
  };
  return (
    <Modal opened={booking !== null} onClose={close} title={t('consultations.bookings.rejectTitle')} centered>
      {booking && (
        <form onSubmit={submit} noValidate>
          <Stack>
            <Text size="sm">{t('consultations.bookings.rejectText', { farmer: booking.farmer.username })}</Text>
            <Textarea
              label={t('consultations.bookings.reasonLabel')}
              placeholder={t('consultations.bookings.reasonPlaceholder')}
              value={reason}
              onChange={(e) => setReason(e.currentTarget.value)}
              maxLength={500}
              autosize
              minRows={2}
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                {t('consultations.bookings.keep')}
              </Button>
              <Button type="submit" color="red" loading={manage.isPending}>
                {t('consultations.bookings.confirmReject')}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}

/** Bookings (expert): farmers' requests on your slots; approve with a scheduled time or reject. */
export default function BookingsPage() {
  const { t } = useTranslation();
  const [filter, setFilter] = useState<BookingFilter>('all');
  const [page, setPage] = useState(1);
  const [approving, setApproving] = useState<Booking | null>(null);
  const [rejecting, setRejecting] = useState<Booking | null>(null);
  const [cancelling, setCancelling] = useState<Booking | null>(null);
  const bookings = useExpertBookings({
    page,
    page_size: PAGE_SIZE,
    status: filter === 'all' ? undefined : filter,
  });
  const results = bookings.data?.results ?? [];
  useClampPage(page, setPage, bookings.data?.count, PAGE_SIZE);

  return (
    <Stack>
      <Group justify="space-between" wrap="wrap">
        <Title order={1} size="h2">
          {t('consultations.bookings.title')}
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
        emptyText={t('consultations.bookings.empty')}
        onRetry={() => void bookings.refetch()}
      >
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
          {results.map((b) => (
            <BookingCard
              key={b.id}
              booking={b}
              onApprove={() => setApproving(b)}
              onReject={() => setRejecting(b)}
              onCancel={() => setCancelling(b)}
            />
          ))}
        </SimpleGrid>
        <CardPager page={page} pageSize={PAGE_SIZE} total={bookings.data?.count ?? 0} onChange={setPage} />
      </ListState>
      <ApproveDialog booking={approving} onClose={() => setApproving(null)} />
      <RejectDialog booking={rejecting} onClose={() => setRejecting(null)} />
      <OnDemand when={cancelling !== null}>
        <CancelDialog booking={cancelling} viewer="expert" onClose={() => setCancelling(null)} />
      </OnDemand>
    </Stack>
  );
}
