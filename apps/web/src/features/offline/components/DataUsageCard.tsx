import { useCallback, useEffect, useState } from 'react';
import { Button, Card, Group, Stack, Text } from '@mantine/core';
import { IconDatabase, IconDownload } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { APP_FILES_FILE, type AppFiles, cacheAppFiles } from '../../../lib/app-files.ts';
import { formatNumber } from '../../../lib/format.ts';
import { FILES_CACHE } from '../lib/store.ts';

const megabytes = (bytes: number) => `${formatNumber(bytes / 1_000_000, 1)} MB`;

interface Usage {
  /** The app's own files kept for offline use (the worker's caches): bytes and files. */
  appBytes: number;
  appFiles: number;
  /** The offline diagnosis model and its runtime. */
  modelBytes: number;
  /** Everything this site stores on the phone, as the browser counts it; null where it does not say. */
  storedBytes: number | null;
  /** The app's files not saved yet: what "Save all screens" would download (decoded bytes). */
  missingBytes: number;
}

/** What Kutu keeps on this phone, read from Cache Storage and the browser's storage estimate. */
async function measure(): Promise<Usage> {
  const usage: Usage = { appBytes: 0, appFiles: 0, modelBytes: 0, storedBytes: null, missingBytes: 0 };
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    for (const request of await cache.keys()) {
      const response = await cache.match(request);
      if (!response) continue;
      const bytes = (await response.blob()).size;
      if (name === FILES_CACHE) usage.modelBytes += bytes;
      else {
        usage.appBytes += bytes;
        usage.appFiles += 1;
      }
    }
  }
  const estimate = await navigator.storage?.estimate?.().catch(() => null);
  usage.storedBytes = estimate?.usage ?? null;
  const list = await fetch(`/${APP_FILES_FILE}`)
    .then((res) => (res.ok ? (res.json() as Promise<AppFiles>) : null))
    .catch(() => null);
  for (const file of list?.all ?? []) {
    if (!(await caches.match(file.url))) usage.missingBytes += file.bytes;
  }
  return usage;
}

/**
 * "Data used": how much the app has saved on the phone for offline use (its screens, the offline model)
 * and in all, and a button that saves the screens not opened yet, with the data it would cost
 * (docs/decisions/0037). Screens are otherwise saved when first opened, or all at once on Wi-Fi.
 */
export function DataUsageCard() {
  const { t } = useTranslation();
  const [usage, setUsage] = useState<Usage | null>(null);
  const [saving, setSaving] = useState(false);
  const [failed, setFailed] = useState(false);
  const refresh = useCallback(() => {
    void measure()
      .then(setUsage)
      .catch(() => setUsage(null));
  }, []);
  useEffect(refresh, [refresh]);
  if (typeof caches === 'undefined') return null;

  const saveAll = async () => {
    setSaving(true);
    setFailed(false);
    const result = await cacheAppFiles('all');
    setFailed(result === null || result.failed !== 0);
    setSaving(false);
    refresh();
  };

  return (
    <Card withBorder padding="sm" data-testid="data-usage">
      <Stack gap="xs">
        <Group gap="xs" wrap="nowrap">
          <IconDatabase size={20} aria-hidden />
          <Text fw={600}>{t('offline.data.title')}</Text>
        </Group>
        {usage === null ? (
          <Text size="sm" c="dimmed">
            {t('offline.data.measuring')}
          </Text>
        ) : (
          <>
            <Text size="sm" data-testid="data-usage-app">
              {t('offline.data.app', { size: megabytes(usage.appBytes), count: usage.appFiles })}
            </Text>
            {usage.modelBytes > 0 && (
              <Text size="sm" data-testid="data-usage-model">
                {t('offline.data.model', { size: megabytes(usage.modelBytes) })}
              </Text>
            )}
            {usage.storedBytes !== null && (
              <Text size="sm" data-testid="data-usage-total">
                {t('offline.data.total', { size: megabytes(usage.storedBytes) })}
              </Text>
            )}
            <Text size="sm" c="dimmed">
              {t('offline.data.later')}
            </Text>
            {usage.missingBytes > 0 && (
              <Group gap="sm">
                <Button
                  size="sm"
                  variant="light"
                  leftSection={<IconDownload size={18} />}
                  loading={saving}
                  onClick={() => void saveAll()}
                  data-testid="data-usage-save-all"
                >
                  {t('offline.data.saveAll')}
                </Button>
                <Text size="sm" c="dimmed" data-testid="data-usage-missing">
                  {t('offline.size', { size: megabytes(usage.missingBytes) })}
                </Text>
              </Group>
            )}
            {failed && (
              <Text size="sm" c="red" role="alert">
                {t('offline.data.saveFailed')}
              </Text>
            )}
          </>
        )}
      </Stack>
    </Card>
  );
}
