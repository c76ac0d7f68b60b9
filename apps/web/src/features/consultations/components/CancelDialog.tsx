import { Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { type Booking, cancelBookingBody } from '@kutu/contract';
import { useTranslation } from 'react-i18next';
import { ApiError, errorMessage } from '../../../lib/api.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { useCancelBooking } from '../../../api/consultations.ts';
import { translateErrors } from '../../../lib/validation.ts';
import { useContractForm } from '../../../lib/contract-form.ts';

/** Cancel a booking: the farmer may say why, the expert must (the server refuses an expert without a reason). */
export function CancelDialog({
  booking,
  viewer,
  onClose,
}: {
  booking: Booking | null;
  viewer: 'farmer' | 'expert';
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const cancel = useCancelBooking();
  const form = useContractForm(cancelBookingBody, { initialValues: { reason: '' } });
  const close = () => {
    form.reset();
    onClose();
  };
  const submit = form.onSubmit(({ reason }) => {
    if (!booking) return;
    cancel.mutate(
      { id: booking.id, reason },
      {
        onSuccess: () => {
          notifySuccess(t('consultations.cancel.done'));
          close();
        },
        onError: (err) => {
          if (err instanceof ApiError) form.setErrors(translateErrors(err.fields));
          notifyError(errorMessage(err));
        },
      },
    );
  });
  return (
    <Modal opened={booking !== null} onClose={close} title={t('consultations.cancel.title')} centered>
      {booking && (
        <form onSubmit={submit} noValidate>
          <Stack>
            <Text size="sm">
              {t(viewer === 'farmer' ? 'consultations.cancel.farmerText' : 'consultations.cancel.expertText')}
            </Text>
            <Textarea
              label={t(
                viewer === 'farmer' ? 'consultations.bookings.reasonLabel' : 'consultations.cancel.reasonRequired',
              )}
              required={viewer === 'expert'}
              maxLength={500}
              autosize
              minRows={2}
              {...form.getInputProps('reason')}
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                {t('consultations.bookings.keep')}
              </Button>
              <Button type="submit" color="red" loading={cancel.isPending}>
                {t('consultations.cancel.confirm')}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
