import { Alert, Badge, Card, Group, Stack, Text, Title } from '@mantine/core';
import type { BackupEntry } from '@kutu/contract';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/format.ts';
import { ListState } from '../../../components/ListState.tsx';
import { useBackupStatus } from '../../../api/backups.ts';

const megabytes = (bytes: number | null) => ((bytes ?? 0) / 1_000_000).toFixed(1);

/** When the last verified backup was taken, its size, and a failed try after it (the administrator's screen). */
export function Backups() {
  const { t } = useTranslation();
  const query = useBackupStatus();
  const status = query.data;
  const last = status?.last_verified ?? null;
  const newest: BackupEntry | undefined = status?.recent[0];
  const failedSince = newest && !newest.verified && newest.id !== last?.id ? newest : null;
  return (
    <Stack gap="md" component="section" aria-labelledby="backups-title">
      <Title order={2} size="h3" id="backups-title">
        {t('backups.title')}
      </Title>
      <ListState query={query} errorTitle={t('backups.loadFailed')} empty={false} emptyText="">
        <Card withBorder radius="md" padding="md" component="article" aria-label={t('backups.title')}>
          <Stack gap="xs">
            {last ? (
              <Group justify="space-between" wrap="wrap" gap="xs">
                <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                  {t('backups.last', {
                    when: formatDateTime(last.started_at),
                    size: t('backups.megabytes', { size: megabytes(last.size_bytes) }),
                  })}
                </Text>
                <Badge color={last.verified ? 'green' : 'red'} variant="light">
                  {t(last.verified ? 'backups.verified' : 'backups.notVerified')}
                </Badge>
              </Group>
            ) : (
              <Text size="sm">{t('backups.none')}</Text>
            )}
            {failedSince && (
              <Alert color="red" variant="light" p="xs">
                <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                  {t('backups.failed', {
                    when: formatDateTime(failedSince.started_at),
                    reason: failedSince.error ?? '',
                  })}
                </Text>
              </Alert>
            )}
            <Text size="sm" c="dimmed">
              {status && status.every_hours > 0
                ? t('backups.every', { count: status.every_hours, keep: status.keep })
                : t('backups.off')}
            </Text>
          </Stack>
        </Card>
      </ListState>
    </Stack>
  );
}
