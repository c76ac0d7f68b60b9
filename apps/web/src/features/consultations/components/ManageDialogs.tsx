import { useState, type FormEvent } from 'react';
import { Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import type { Booking } from '@kutu/contract';
import { useTranslation } from 'react-i18next';
import { ApiError, errorMessage } from '../../../lib/api.ts';
import { formatDateTime, formatTime, viewerTimeZone } from '../../../lib/format.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { useManageBooking } from '../../../api/consultations.ts';

// The expert's approve and reject dialogs (Bookings), loaded when one is first opened.

/**
 * Approval confirms the time the slot fixes, its start (the server takes it from the slot): the expert
 * is not asked again for a date and time.
 */
export function ApproveDialog({ booking, onClose }: { booking: Booking | null; onClose: () => void }) {
  const { t } = useTranslation();
  const manage = useManageBooking();
  const [error, setError] = useState<string | undefined>();
  const close = () => {
    setError(undefined);
    onClose();
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!booking) return;
    setError(undefined);
    manage.mutate(
      { booking_id: booking.id, action: 'approve' },
      {
        onSuccess: () => {
          notifySuccess(t('consultations.bookings.approved'));
          close();
        },
        onError: (err) => {
          setError(err instanceof ApiError && err.fields.selected_date ? err.fields.selected_date : errorMessage(err));
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
            <Text size="sm" data-testid="approve-time">
              {t('consultations.bookings.approveText', {
                farmer: booking.farmer.username,
                start: formatDateTime(booking.slot.start_time),
                end: formatTime(booking.slot.end_time),
              })}
            </Text>
            <Text size="xs" c="dimmed">
              {t('consultations.zoneHint', { zone: viewerTimeZone() })}
            </Text>
            {error && (
              <Text size="sm" c="red" role="alert">
                {error}
              </Text>
            )}
            <Button type="submit" loading={manage.isPending} data-autofocus>
              {t('consultations.bookings.confirmApprove')}
            </Button>
          </Stack>
        </form>
      )}
    </Modal>
  );
}

export function RejectDialog({ booking, onClose }: { booking: Booking | null; onClose: () => void }) {
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
