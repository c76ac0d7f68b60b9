import { useForm } from '@mantine/form';
import { Button, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ApiError, errorMessage } from '../../../lib/api.ts';
import { viewerTimeZone } from '../../../lib/format.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { translateErrors } from '../../../lib/validation.ts';
import { localInputToIso, useCreateSlot } from '../../../api/consultations.ts';
import { MeetingFields, type MeetingValues } from './MeetingFields.tsx';

type OneOffValues = MeetingValues & {
  start: string;
  end: string;
};

/** One slot at a given time (the expert's slots screen), checked by the server in the viewer's zone. */
export default function OneOffSlotForm() {
  const { t } = useTranslation();
  const form = useForm<OneOffValues>({
    initialValues: { start: '', end: '', mode: 'phone', place: '', video_url: '' },
  });
  const create = useCreateSlot();

  const submit = form.onSubmit(({ start, end, ...meeting }) => {
    create.mutate(
      { start_time: localInputToIso(start), end_time: localInputToIso(end), ...meeting },
      {
        onSuccess: () => {
          notifySuccess(t('consultations.createSlot.created'));
          form.reset();
        },
        onError: (err) => {
          if (err instanceof ApiError) {
            const { start_time, end_time, ...rest } = translateErrors(err.fields);
            form.setErrors({ start: start_time, end: end_time, ...rest });
          }
          notifyError(errorMessage(err));
        },
      },
    );
  });

  return (
    <Paper withBorder p="md" radius="md" component="form" onSubmit={submit} noValidate>
      <Stack>
        <Text size="sm" c="dimmed">
          {t('consultations.zoneHint', { zone: viewerTimeZone() })}
        </Text>
        <Title order={3} size="h4">
          {t('consultations.createSlot.oneOff')}
        </Title>
        <TextInput
          type="datetime-local"
          label={t('consultations.createSlot.start')}
          required
          {...form.getInputProps('start')}
        />
        <TextInput
          type="datetime-local"
          label={t('consultations.createSlot.end')}
          required
          {...form.getInputProps('end')}
        />
        <MeetingFields form={form} />
        <Button type="submit" loading={create.isPending}>
          {t('consultations.createSlot.submit')}
        </Button>
      </Stack>
    </Paper>
  );
}
