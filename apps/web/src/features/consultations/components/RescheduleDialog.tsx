import { Button, Modal, Stack, Text } from '@mantine/core';
import type { AvailabilitySlot, Booking } from '@kutu/contract';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../lib/api.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { useBookableSlots, useBookSlot, useCancelBooking } from '../../../api/consultations.ts';

/**
 * Reschedule = book another slot with the same topic and analysis, then cancel this booking: one tap on
 * the new time. Booking first means a failure keeps the old booking (nothing is lost).
 */
export function RescheduleDialog({ booking, onClose }: { booking: Booking | null; onClose: () => void }) {
  const { t } = useTranslation();
  const slots = useBookableSlots({ page: 1, page_size: 20 });
  const book = useBookSlot();
  const cancel = useCancelBooking();
  const move = async (slot: AvailabilitySlot) => {
    if (!booking) return;
    try {
      await book.mutateAsync({ slot_id: slot.id, topic: booking.topic, analysis_id: booking.analysis?.id });
      await cancel.mutateAsync({ id: booking.id, reason: t('consultations.reschedule.reason') });
      notifySuccess(t('consultations.reschedule.done'));
      onClose();
    } catch (err) {
      notifyError(errorMessage(err));
    }
  };
  const list = slots.data?.results ?? [];
  return (
    <Modal opened={booking !== null} onClose={onClose} title={t('consultations.reschedule.title')} centered>
      <Stack gap="xs">
        <Text size="sm">{t('consultations.reschedule.text')}</Text>
        {list.length === 0 && <Text c="dimmed">{t('consultations.slots.empty')}</Text>}
        {list.map((s) => (
          <Button
            key={s.id}
            variant="default"
            fullWidth
            justify="space-between"
            loading={book.isPending && book.variables?.slot_id === s.id}
            onClick={() => void move(s)}
          >
            {formatDateTime(s.start_time)} · {s.expert.user.username} · {t(`consultations.mode.${s.mode}`)}
          </Button>
        ))}
      </Stack>
    </Modal>
  );
}
