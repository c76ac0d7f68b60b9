import { useEffect } from 'react';
import { Anchor, Badge, Text } from '@mantine/core';
import type { Booking, BookingStatus } from '@kutu/contract';
import { resultLabelKey } from '../../../lib/diagnosis-labels.ts';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { formatConfidence, formatDateTime } from '../../../lib/format.ts';
import { FittingSegmentedControl } from '../../../components/FittingSegmentedControl.tsx';

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

/** The farmer's photo attached to a booking, as Kutu read it: "Common rust (Puccinia sorghi) (87%)". */
function analysisLabel(t: TFunction, a: NonNullable<Booking['analysis']>): string {
  const label = t(resultLabelKey({ outcome: a.rust_class ? 'diagnosis' : 'not_leaf', ...a }));
  return a.rust_class ? `${label} (${formatConfidence(a.confidence)})` : label;
}

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
    <FittingSegmentedControl
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
          <b>{t('consultations.analysis')}:</b> {analysisLabel(t, booking.analysis)}
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

/** After a change empties the last page, step back to the page that still has rows. */
export function useClampPage(page: number, setPage: (p: number) => void, total: number | undefined, pageSize: number) {
  useEffect(() => {
    if (total === undefined) return;
    const last = Math.max(1, Math.ceil(total / pageSize));
    if (page > last) setPage(last);
  }, [page, setPage, total, pageSize]);
}
