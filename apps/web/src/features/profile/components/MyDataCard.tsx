import { useState } from 'react';
import { Button, Card, Checkbox, Stack, Switch, Text, Title } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { downloadMyData, useChangeConsent, useConsents } from '../../../api/privacy.ts';
import { errorMessage } from '../../../lib/api.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';

/**
 * "My data": everything Kutu holds as one file, and the consent choices. The service's consent is shown
 * as given (it is withdrawn by deleting the account); SMS and photos for training change here.
 */
export function MyDataCard() {
  const { t } = useTranslation();
  const consents = useConsents();
  const change = useChangeConsent();
  const [downloading, setDownloading] = useState(false);

  const download = async () => {
    setDownloading(true);
    try {
      await downloadMyData();
    } catch {
      notifyError(t('profile.privacy.downloadFailed'));
    } finally {
      setDownloading(false);
    }
  };
  const set = (purpose: 'sms' | 'training', granted: boolean) =>
    change.mutate(
      { [purpose]: granted },
      {
        onSuccess: () => notifySuccess(t('profile.privacy.saved')),
        onError: (err) => notifyError(errorMessage(err)),
      },
    );
  const state = consents.data;

  return (
    <Card withBorder padding="md" maw={560}>
      <Stack gap="sm">
        <Title order={2} size="h4">
          {t('profile.privacy.title')}
        </Title>
        <Text size="sm">{t('profile.privacy.text')}</Text>
        <Button leftSection={<IconDownload size={16} />} onClick={download} loading={downloading} variant="light">
          {t('profile.privacy.download')}
        </Button>
        <Title order={3} size="h5" mt="xs">
          {t('profile.privacy.consentTitle')}
        </Title>
        <Checkbox label={t('profile.privacy.service')} checked readOnly disabled />
        <Switch
          label={t('profile.privacy.sms')}
          checked={state?.sms.granted ?? false}
          disabled={!state || change.isPending}
          onChange={(e) => set('sms', e.currentTarget.checked)}
        />
        <Switch
          label={t('profile.privacy.training')}
          checked={state?.training.granted ?? false}
          disabled={!state || change.isPending}
          onChange={(e) => set('training', e.currentTarget.checked)}
        />
      </Stack>
    </Card>
  );
}
