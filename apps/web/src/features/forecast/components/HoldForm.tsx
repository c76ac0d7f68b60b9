import { Button, Group, Stack, Textarea } from '@mantine/core';
import { useTranslation } from 'react-i18next';
// The subpath, not the contract's index: the index's schemas would ride along into this screen's files.
import { forecastHoldBody } from '@kutu/contract/forecast-hold';
import { useHoldDistrict } from '../../../api/forecast-desk.ts';
import { ApiError, errorMessage } from '../../../lib/api.ts';
import { useContractForm } from '../../../lib/contract-form.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { translateErrors } from '../../../lib/validation.ts';

/** Holds a district's advisories of this week, with the reason (the contract's schema checks it, as the server does). */
export function HoldForm({ district, name, onDone }: { district: string; name: string; onDone: () => void }) {
  const { t } = useTranslation();
  const form = useContractForm(forecastHoldBody, { initialValues: { district, reason: '' } });
  const hold = useHoldDistrict();
  const submit = form.onSubmit((values) =>
    hold.mutate(values, {
      onSuccess: () => {
        notifySuccess(t('forecastDesk.held', { name }));
        onDone();
      },
      onError: (err) => {
        if (err instanceof ApiError) form.setErrors(translateErrors(err.fields));
        notifyError(errorMessage(err));
      },
    }),
  );
  return (
    <form onSubmit={submit} noValidate data-testid="hold-form">
      <Stack gap="xs">
        <Textarea
          label={t('forecastDesk.reason')}
          description={t('forecastDesk.reasonHint')}
          autosize
          minRows={2}
          required
          {...form.getInputProps('reason')}
        />
        <Group gap="xs" wrap="wrap">
          <Button type="submit" color="orange" loading={hold.isPending}>
            {t('forecastDesk.hold', { name })}
          </Button>
          <Button variant="subtle" onClick={onDone}>
            {t('forecastDesk.cancel')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
