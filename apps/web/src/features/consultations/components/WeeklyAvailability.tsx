import { useState } from 'react';
import {
  Alert,
  Button,
  Card,
  Chip,
  Group,
  List,
  NativeSelect,
  Paper,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import {
  AVAILABILITY_WINDOW_DAYS,
  slotLengths,
  weekdayNames,
  weeklyAvailabilityBody,
  type AvailabilityRuleCreated,
} from '@kutu/contract';
import { useTranslation } from 'react-i18next';
import { ApiError, errorMessage } from '../../../lib/api.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { useCreateRule, useEndRule, useRules } from '../../../api/consultations.ts';
import { MeetingFields, type MeetingValues } from './MeetingFields.tsx';
import { translateErrors } from '../../../lib/validation.ts';
import { useContractForm } from '../../../lib/contract-form.ts';

type WeeklyValues = MeetingValues & {
  weekdays: string[];
  start_time: string;
  end_time: string;
  slot_minutes: string;
};

/**
 * Weekly availability (expert): days, hours, slot length and how the consultation happens. The server
 * makes the slots for the next four weeks in East Africa Time and keeps the window topped up.
 */
export function WeeklyAvailabilityForm() {
  const { t } = useTranslation();
  const create = useCreateRule();
  const [skipped, setSkipped] = useState<AvailabilityRuleCreated['skipped']>([]);
  const form = useContractForm<WeeklyValues>(weeklyAvailabilityBody, {
    initialValues: {
      weekdays: [],
      start_time: '09:00',
      end_time: '12:00',
      slot_minutes: '30',
      mode: 'phone',
      place: '',
      video_url: '',
    },
  });

  const submit = form.onSubmit((values) => {
    create.mutate(
      { ...values, weekdays: values.weekdays.map(Number), slot_minutes: Number(values.slot_minutes) },
      {
        onSuccess: (res) => {
          notifySuccess(res.message);
          setSkipped(res.skipped);
          form.reset();
        },
        onError: (err) => {
          if (err instanceof ApiError) form.setErrors(translateErrors(err.fields));
          notifyError(errorMessage(err));
        },
      },
    );
  });

  return (
    <Paper withBorder p="md" radius="md" component="form" onSubmit={submit} noValidate>
      <Stack>
        <Title order={3} size="h4">
          {t('consultations.weekly.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('consultations.weekly.hint', { days: AVAILABILITY_WINDOW_DAYS })}
        </Text>
        <Stack gap={4}>
          <Text size="sm" fw={500}>
            {t('consultations.weekly.days')}
          </Text>
          <Chip.Group multiple {...form.getInputProps('weekdays')}>
            <Group gap="xs">
              {weekdayNames.map((name, i) => (
                <Chip key={name} value={String(i + 1)} size="sm">
                  {t(`consultations.weekday.${name.toLowerCase()}`)}
                </Chip>
              ))}
            </Group>
          </Chip.Group>
          {form.errors.weekdays && (
            <Text size="sm" c="red.8" role="alert">
              {form.errors.weekdays}
            </Text>
          )}
        </Stack>
        <Group grow align="flex-start">
          <TextInput type="time" label={t('consultations.weekly.from')} {...form.getInputProps('start_time')} />
          <TextInput type="time" label={t('consultations.weekly.until')} {...form.getInputProps('end_time')} />
        </Group>
        <NativeSelect
          label={t('consultations.weekly.length')}
          data={slotLengths.map((m) => ({ value: String(m), label: t('consultations.weekly.minutes', { count: m }) }))}
          {...form.getInputProps('slot_minutes')}
        />
        <MeetingFields form={form} />
        <Button type="submit" loading={create.isPending}>
          {t('consultations.weekly.save')}
        </Button>
        {skipped.length > 0 && (
          <Alert color="yellow" title={t('consultations.weekly.skippedTitle', { count: skipped.length })}>
            <List size="sm">
              {skipped.slice(0, 5).map((s) => (
                <List.Item key={s.start_time}>{s.message}</List.Item>
              ))}
            </List>
          </Alert>
        )}
      </Stack>
    </Paper>
  );
}

/** The expert's weekly availabilities, each with a Stop button. */
export function WeeklyAvailabilityList() {
  const { t } = useTranslation();
  const rules = useRules();
  const end = useEndRule();
  const list = rules.data?.results ?? [];
  if (list.length === 0) return null;
  return (
    <Stack gap="xs">
      <Title order={3} size="h4">
        {t('consultations.weekly.listTitle')}
      </Title>
      {list.map((r) => (
        <Card key={r.id} withBorder padding="sm" component="article" aria-label={t('consultations.weekly.rule')}>
          <Group justify="space-between" wrap="wrap">
            <Text size="sm">
              {r.weekdays.map((d) => t(`consultations.weekday.${weekdayNames[d - 1].toLowerCase()}`)).join(', ')} ·{' '}
              {t('consultations.weekly.timeRange', { start: r.start_time, end: r.end_time })} ·{' '}
              {t('consultations.weekly.minutes', { count: r.slot_minutes })} · {t(`consultations.mode.${r.mode}`)}
              {r.place ? ` — ${r.place}` : ''}
            </Text>
            <Button
              size="xs"
              variant="light"
              color="red"
              loading={end.isPending && end.variables === r.id}
              onClick={() =>
                end.mutate(r.id, {
                  onSuccess: (res) => notifySuccess(res.message),
                  onError: (err) => notifyError(errorMessage(err)),
                })
              }
            >
              {t('consultations.weekly.stop')}
            </Button>
          </Group>
        </Card>
      ))}
    </Stack>
  );
}

/** The form and the list, as the Create Slot page shows them (loaded after the page: zod). */
export default function WeeklyAvailability() {
  return (
    <>
      <WeeklyAvailabilityForm />
      <WeeklyAvailabilityList />
    </>
  );
}
