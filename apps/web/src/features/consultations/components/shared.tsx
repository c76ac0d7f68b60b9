import { useEffect, type ReactNode } from 'react';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Center,
  Group,
  Loader,
  Pagination,
  SegmentedControl,
  Stack,
  Text,
} from '@mantine/core';
import type { Booking, BookingStatus } from '@kutu/contract';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../lib/api.ts';
import { formatDateTime } from '../../../lib/format.ts';

const statusColors: Record<BookingStatus, string> = {
  pending: 'yellow',
  approved: 'green',
  rejected: 'red',
  cancelled: 'gray',
};
export function BookingBadge({ status }: { status: BookingStatus }) {
  const { t } = useTranslation();
  return (
    <Badge color={statusColors[status]} variant="light">
      {t(`consultations.status.${status}`)}
    </Badge>
  );
}

export type BookingFilter = BookingStatus | 'all';

/** All, Pending, Approved or Rejected above a booking list. */
export function BookingStatusFilter({
  value,
  onChange,
}: {
  value: BookingFilter;
  onChange: (value: BookingFilter) => void;
}) {
  const { t } = useTranslation();
  return (
    <SegmentedControl
      aria-label={t('consultations.bookings.filter')}
      value={value}
      onChange={(v) => onChange(v as BookingFilter)}
      data={[
        { value: 'all', label: t('consultations.bookings.all') },
        { value: 'pending', label: t('consultations.status.pending') },
        { value: 'approved', label: t('consultations.status.approved') },
        { value: 'rejected', label: t('consultations.status.rejected') },
        { value: 'cancelled', label: t('consultations.status.cancelled') },
      ]}
    />
  );
}

/**
 * What the booking is about and how it happens; the place, link and the other side's phone come
 * from the server only once the booking is approved.
 */
export function MeetingLines({ booking, viewer }: { booking: Booking; viewer: 'farmer' | 'expert' }) {
  const { t } = useTranslation();
  const phone = viewer === 'farmer' ? booking.expert.phone : booking.farmer.phone;
  return (
    <>
      <Text size="sm">
        <b>{t('consultations.topic')}:</b> {booking.topic || '—'}
      </Text>
      {booking.analysis && (
        <Text size="sm">
          <b>{t('consultations.analysis')}:</b> {booking.analysis.label}
        </Text>
      )}
      <Text size="sm">
        <b>{t('consultations.mode.label')}:</b> {t(`consultations.mode.${booking.mode}`)}
        {booking.place ? ` — ${booking.place}` : ''}
      </Text>
      {booking.video_url && (
        <Anchor size="sm" href={booking.video_url} target="_blank" rel="noreferrer">
          {t('consultations.videoLink')}
        </Anchor>
      )}
      {phone && (
        <Text size="sm">
          <b>{t(viewer === 'farmer' ? 'consultations.expertPhone' : 'consultations.farmerPhone')}:</b>{' '}
          <Anchor href={`tel:${phone}`}>{phone}</Anchor>
        </Text>
      )}
    </>
  );
}

/** A card's period heading with the slot's start and end lines (inside the card's Stack). */
export function PeriodLines({ label, start, end }: { label: string; start: string; end: string }) {
  const { t } = useTranslation();
  return (
    <>
      <Text size="sm" fw={600}>
        {label}
      </Text>
      <Text size="sm">
        {t('consultations.start')}: {formatDateTime(start)}
      </Text>
      <Text size="sm">
        {t('consultations.end')}: {formatDateTime(end)}
      </Text>
    </>
  );
}

/** Loading, error and empty states shared by the card lists. */
export function ListState({
  isPending,
  error,
  isEmpty,
  emptyText,
  onRetry,
  children,
}: {
  isPending: boolean;
  error: unknown;
  isEmpty: boolean;
  emptyText: string;
  onRetry: () => void;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  if (isPending) {
    return (
      <Center p="xl" role="status">
        <Loader />
      </Center>
    );
  }
  if (error) {
    return (
      <Alert color="red" title={t('consultations.loadError')}>
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{errorMessage(error)}</Text>
          <Button size="xs" variant="light" color="red" onClick={onRetry}>
            {t('consultations.retry')}
          </Button>
        </Stack>
      </Alert>
    );
  }
  if (isEmpty) {
    return (
      <Text c="dimmed" ta="center" p="xl">
        {emptyText}
      </Text>
    );
  }
  return children;
}

/** Page buttons and the range label under a card list. */
export function CardPager({
  page,
  pageSize,
  total,
  onChange,
  label,
}: {
  page: number;
  pageSize: number;
  total: number;
  onChange: (page: number) => void;
  /** The words of "1–5 of 12": rows by default. */
  label?: (range: { from: number; to: number; total: number }) => string;
}) {
  const { t } = useTranslation();
  if (total === 0) return null;
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const from = (page - 1) * pageSize + 1;
  const to = Math.min(page * pageSize, total);
  return (
    <Group justify="space-between" mt="md">
      <Text size="sm" c="dimmed">
        {label ? label({ from, to, total }) : t('dataTable.range', { from, to, total })}
      </Text>
      {pages > 1 && <Pagination value={page} total={pages} onChange={onChange} withEdges />}
    </Group>
  );
}

/** After a change empties the last page, step back to the page that still has rows. */
export function useClampPage(page: number, setPage: (p: number) => void, total: number | undefined, pageSize: number) {
  useEffect(() => {
    if (total === undefined) return;
    const last = Math.max(1, Math.ceil(total / pageSize));
    if (page > last) setPage(last);
  }, [page, setPage, total, pageSize]);
}
