import { useEffect } from 'react';
import { Alert, Button, Card, Group, Stack, Text } from '@mantine/core';
import { IconCloudDownload, IconCloudUpload, IconWifiOff } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { downloadOfflineModel, needsUpdate, refreshOfflineModel, useOfflineModel } from '../../lib/offline/model.ts';
import { useQueue } from '../../lib/offline/queue.ts';
import { offlineSupported } from '../../lib/offline/store.ts';
import { formatNumber } from '../../lib/format.ts';
import { ProgressLater } from '../ProgressLater.tsx';

const megabytes = (bytes: number) => `${formatNumber(bytes / 1_000_000, 1)} MB`;

/** "Use Kutu offline": the model's state, its size before download, progress during it, and the queue. */
export function OfflineCard() {
  const { t } = useTranslation();
  const model = useOfflineModel();
  const queue = useQueue();
  const waiting = queue.filter((q) => q.error === null).length;
  const refused = queue.filter((q) => q.error !== null);
  useEffect(() => {
    void refreshOfflineModel();
  }, []);
  const update = needsUpdate(model);
  const total = model.downloadBytes ?? 0;
  if (!offlineSupported()) return null;

  return (
    <Card withBorder padding="sm" data-testid="offline-card">
      <Stack gap="xs">
        <Group gap="xs" wrap="nowrap">
          <IconWifiOff size={20} aria-hidden />
          <Text fw={600}>{t('offline.title')}</Text>
        </Group>
        {model.status === 'downloading' ? (
          <Stack gap={4} data-testid="offline-progress">
            <Text size="sm">
              {t('offline.downloading', { received: megabytes(model.received), total: megabytes(total) })}
            </Text>
            <ProgressLater value={total ? (100 * model.received) / total : 0} aria-label={t('offline.progressLabel')} />
          </Stack>
        ) : model.stored ? (
          <Text size="sm" data-testid="offline-ready">
            {t('offline.ready', { version: model.stored.version })}
          </Text>
        ) : (
          <Text size="sm">{t('offline.explain')}</Text>
        )}
        {model.status !== 'downloading' && update && (
          <Group gap="sm">
            <Button
              size="sm"
              variant="light"
              leftSection={<IconCloudDownload size={18} />}
              onClick={() => void downloadOfflineModel()}
              data-testid="offline-download"
            >
              {model.stored ? t('offline.update') : t('offline.use')}
            </Button>
            {model.downloadBytes !== null && (
              <Text size="sm" c="dimmed" data-testid="offline-size">
                {t('offline.size', { size: megabytes(model.downloadBytes) })}
              </Text>
            )}
          </Group>
        )}
        {model.error && (
          <Text size="sm" c="red" role="alert">
            {model.error}
          </Text>
        )}
        {waiting > 0 && (
          <Group gap="xs" wrap="nowrap" data-testid="offline-queue">
            <IconCloudUpload size={18} aria-hidden />
            <Text size="sm">{t('offline.queue.waiting', { count: waiting })}</Text>
          </Group>
        )}
        {refused.map((q) => (
          <Alert key={q.key} color="red" title={t('offline.queue.refused', { name: q.filename })}>
            {q.error}
          </Alert>
        ))}
      </Stack>
    </Card>
  );
}
