import { useState } from 'react';
import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Application } from '@kutu/contract';
import { downloadBulletin, useSetNational } from '../../api/bulletin.ts';
import { errorMessage } from '../../lib/api.ts';
import { notifyError, notifySuccess } from '../../lib/notify.ts';

/**
 * The national rust bulletin's two files, for administrators and national officers (decision 0122): the PDF
 * to print or forward, the CSV for spreadsheets. Its strings are the officer part's (`extension.bulletin`).
 */
export function BulletinDownloads() {
  const { t } = useTranslation();
  const [busy, setBusy] = useState<'csv' | 'pdf' | null>(null);
  const download = (kind: 'csv' | 'pdf') => {
    setBusy(kind);
    downloadBulletin(kind)
      .catch((err) => notifyError(errorMessage(err)))
      .finally(() => setBusy(null));
  };
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="bulletin-title">
      <Stack gap="xs">
        <Title order={2} size="h4" id="bulletin-title">
          {t('extension.bulletin.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('extension.bulletin.intro')}
        </Text>
        <Group gap="xs">
          <Button size="sm" variant="light" loading={busy === 'pdf'} onClick={() => download('pdf')}>
            {t('extension.bulletin.pdf')}
          </Button>
          <Button size="sm" variant="light" loading={busy === 'csv'} onClick={() => download('csv')}>
            {t('extension.bulletin.csv')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

/** On an approved officer's card: whether they read the national bulletin, and the administrator's switch. */
export function NationalSwitch({ application: a }: { application: Extract<Application, { role: 'officer' }> }) {
  const { t } = useTranslation();
  const set = useSetNational();
  const national = a.officer.national;
  const toggle = () =>
    set.mutate(
      { id: a.id, national: !national },
      {
        onSuccess: () =>
          notifySuccess(
            t(national ? 'extension.bulletin.revoked' : 'extension.bulletin.granted', { name: a.username }),
          ),
        onError: (err) => notifyError(errorMessage(err)),
      },
    );
  return (
    <Group gap="xs" mt="xs">
      <Text size="sm">{t(national ? 'extension.bulletin.isNational' : 'extension.bulletin.notNational')}</Text>
      <Button size="xs" variant="default" loading={set.isPending} onClick={toggle}>
        {t(national ? 'extension.bulletin.revoke' : 'extension.bulletin.grant')}
      </Button>
    </Group>
  );
}
