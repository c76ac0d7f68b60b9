import { useId } from 'react';
import { SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { meetingModes } from '@kutu/contract/enums';
import type { MeetingMode } from '@kutu/contract';
import { useTranslation } from 'react-i18next';

export type MeetingValues = {
  mode: MeetingMode;
  place: string;
  video_url: string;
};

/** Phone call, farm visit (with its place) or video call (with its link), for a slot or a weekly availability. */
export function MeetingFields<T extends MeetingValues>({ form }: { form: UseFormReturnType<T> }) {
  const { t } = useTranslation();
  const mode = form.getValues().mode;
  // Two of these forms share the expert's page: each labels its own control.
  const labelId = useId();
  return (
    <Stack gap="xs">
      <Text size="sm" fw={500} id={labelId}>
        {t('consultations.mode.question')}
      </Text>
      <SegmentedControl
        aria-labelledby={labelId}
        fullWidth
        data={meetingModes.map((m) => ({ value: m, label: t(`consultations.mode.${m}`) }))}
        {...form.getInputProps('mode')}
      />
      {mode === 'farm_visit' && (
        <TextInput
          label={t('consultations.place')}
          placeholder={t('consultations.placeHint')}
          maxLength={200}
          {...form.getInputProps('place')}
        />
      )}
      {mode === 'video' && (
        <TextInput
          type="url"
          label={t('consultations.videoUrl')}
          placeholder="https://"
          maxLength={500}
          {...form.getInputProps('video_url')}
        />
      )}
    </Stack>
  );
}
