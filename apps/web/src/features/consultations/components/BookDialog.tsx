import { Button, Modal, NativeSelect, Stack, Text, TextInput } from '@mantine/core';
import { bookSlotBody, type AvailabilitySlot } from '@kutu/contract';
import { useTranslation } from 'react-i18next';
import { useAnalyses } from '../../../api/analysis.ts';
import { ApiError, errorMessage } from '../../../lib/api.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { resultLabelKey } from '../../../lib/diagnosis-labels.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { useBookSlot } from '../../../api/consultations.ts';
import { translateErrors } from '../../../lib/validation.ts';
import { useContractForm } from '../../../lib/contract-form.ts';

type BookValues = { topic: string; analysis_id: string };
/** The slot is the one the dialog was opened for; the form holds the rest. */
const bookForm = bookSlotBody.omit({ slot_id: true });

/** Book a slot: a short topic (required) and, if the farmer wants, one of their analyses. */
export function BookDialog({ slot, onClose }: { slot: AvailabilitySlot | null; onClose: () => void }) {
  const { t } = useTranslation();
  const book = useBookSlot();
  const analyses = useAnalyses(1, 20);
  const form = useContractForm<BookValues>(bookForm, { initialValues: { topic: '', analysis_id: '' } });
  const close = () => {
    form.reset();
    onClose();
  };
  const submit = form.onSubmit((values) => {
    if (!slot) return;
    book.mutate(
      { ...values, slot_id: slot.id, analysis_id: values.analysis_id || undefined },
      {
        onSuccess: () => {
          notifySuccess(t('consultations.slots.booked'));
          close();
        },
        onError: (err) => {
          if (err instanceof ApiError) form.setErrors(translateErrors(err.fields));
          notifyError(errorMessage(err));
        },
      },
    );
  });
  // Each photo named as its result was: the rust of its crop (common rust on maize), or no leaf.
  const options = [
    { value: '', label: t('consultations.book.noAnalysis') },
    ...(analyses.data?.results ?? []).map((a) => ({
      value: String(a.id),
      label: `${formatDateTime(a.created_at)} — ${t(resultLabelKey(a))}`,
    })),
  ];
  return (
    <Modal opened={slot !== null} onClose={close} title={t('consultations.book.title')} centered>
      {slot && (
        <form onSubmit={submit} noValidate>
          <Stack>
            <Text size="sm">
              {slot.expert.user.username} · {formatDateTime(slot.start_time)} · {t(`consultations.mode.${slot.mode}`)}
            </Text>
            <TextInput
              label={t('consultations.topic')}
              description={t('consultations.book.topicHint')}
              maxLength={120}
              required
              data-autofocus
              {...form.getInputProps('topic')}
            />
            <NativeSelect
              label={t('consultations.book.attach')}
              data={options}
              {...form.getInputProps('analysis_id')}
            />
            <Button type="submit" loading={book.isPending}>
              {t('consultations.book.submit')}
            </Button>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
