import { Button, Group, Stack, Textarea } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { OFFICER_NOTE_MAX, type OfficerActionBody, type OfficerWeek, officerActionBody } from '@kutu/contract';
import { useContractForm } from '../../../lib/contract-form.ts';
import { errorMessage } from '../../../lib/api.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { FittingSegmentedControl } from '../../../components/FittingSegmentedControl.tsx';
import { useRecordAction } from '../../../api/extension.ts';

type Farmer = OfficerWeek['farmers'][number];

/** The call or visit an officer records for a farmer: loaded when the officer opens it, not with the week. */
export function RecordActionForm({ code, farmer: f, onDone }: { code: string; farmer: Farmer; onDone: () => void }) {
  const { t } = useTranslation();
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
        onDone();
      },
      onError: (err) => notifyError(errorMessage(err)),
    });
  });
  return (
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
          <Button size="sm" variant="subtle" onClick={onDone}>
            {t('extension.farmers.cancel')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
