import { useState, type FormEvent } from 'react';
import { Button, Group, Modal, Stack, Text, Textarea, TextInput } from '@mantine/core';
import type { Booking } from '@kutu/contract';
import { useTranslation } from 'react-i18next';
import { ApiError, errorMessage } from '../../../lib/api.ts';
import { formatDateTime, viewerTimeZone } from '../../../lib/format.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { isoToLocalInput, localInputToIso, useManageBooking } from '../../../api/consultations.ts';

// The expert's approve and reject dialogs (Bookings), loaded when one is first opened.

export function ApproveDialog({ booking, onClose }: { booking: Booking | null; onClose: () => void }) {
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
