import { Anchor, Badge, Button, Card, Group, Stack, Text, Textarea } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { OFFICER_NOTE_MAX, type OfficerActionBody, type OfficerWeek, officerActionBody } from '@kutu/contract';
import { nativeNames } from '@kutu/contract/enums';
import { useContractForm } from '../../../lib/contract-form.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { errorMessage } from '../../../lib/api.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { FittingSegmentedControl } from '../../../components/FittingSegmentedControl.tsx';
import { useRecordAction } from '../api/extension.ts';

type Farmer = OfficerWeek['farmers'][number];

/** A farmer who said "worse" or asked for a call: their number to call, and the call or visit recorded. */
export function FarmerToCall({ code, farmer: f }: { code: string; farmer: Farmer }) {
  const { t } = useTranslation();
  const [open, { toggle, close }] = useDisclosure(false);
  const record = useRecordAction(code);
  const form = useContractForm<{ kind: 'called' | 'visited'; note: string }>(officerActionBody, {
    initialValues: { kind: 'called', note: '' },
    prepare: (v) => ({ ...v, farmer_id: f.farmer_id, analysis_id: f.analysis_id ?? undefined }),
  });
  const submit = form.onSubmit((values) => {
    const body: OfficerActionBody = { ...values, farmer_id: f.farmer_id, analysis_id: f.analysis_id ?? undefined };
    record.mutate(body, {
      onSuccess: () => {
        notifySuccess(t('extension.farmers.recorded', { name: f.username }));
        form.reset();
        close();
      },
      onError: (err) => notifyError(errorMessage(err)),
    });
  });
  const last = f.actions[0];
  return (
    <Card withBorder radius="md" padding="sm" component="article" aria-label={f.username}>
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Text fw={700} style={{ overflowWrap: 'anywhere' }}>
          {f.username}
        </Text>
        <Badge color={f.reason === 'worse' ? 'red' : 'blue'} variant="light">
          {t(`extension.farmers.reason.${f.reason}`)}
        </Badge>
      </Group>
      <Text size="sm">
        <Anchor href={`tel:${f.phone}`}>{f.phone}</Anchor> · {nativeNames[f.language]} · {formatDateTime(f.at)}
      </Text>
      {last ? (
        <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {t(`extension.farmers.last.${last.kind}`, { who: last.officer, when: formatDateTime(last.at) })}: {last.note}
        </Text>
      ) : (
        <Text size="sm" c="dimmed">
          {t('extension.farmers.nobodyYet')}
        </Text>
      )}
      {open ? (
        <form onSubmit={submit} noValidate>
          <Stack gap="xs" mt="xs">
            <FittingSegmentedControl
              aria-label={t('extension.farmers.what')}
              data={[
                { value: 'called', label: t('extension.farmers.called') },
                { value: 'visited', label: t('extension.farmers.visited') },
              ]}
              {...form.getInputProps('kind')}
            />
            <Textarea
              label={t('extension.farmers.note')}
              autosize
              minRows={2}
              maxLength={OFFICER_NOTE_MAX}
              required
              {...form.getInputProps('note')}
            />
            <Group gap="xs">
              <Button type="submit" size="sm" loading={record.isPending}>
                {t('extension.farmers.save')}
              </Button>
              <Button size="sm" variant="subtle" onClick={close}>
                {t('extension.farmers.cancel')}
              </Button>
            </Group>
          </Stack>
        </form>
      ) : (
        <Button size="sm" variant="light" mt="xs" onClick={toggle}>
          {t('extension.farmers.record')}
        </Button>
      )}
    </Card>
  );
}
