import { useCallback, useEffect, useState } from 'react';
import { Button, Card, Group, Stack, Text } from '@mantine/core';
import { IconDatabase, IconDownload } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { APP_FILES_FILE, type AppFiles, cacheAppFiles } from '../../lib/app-files.ts';
import { formatNumber } from '../../lib/format.ts';
import { FILES_CACHE } from '../../lib/offline/store.ts';

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
  held?: Set<string>;
}

/** The size of a stored answer: its Content-Length where it has one (no body read), else its body's. */
async function sizeOf(response: Response): Promise<number> {
  const length = Number(response.headers.get('content-length'));
  return length > 0 && !response.headers.get('content-encoding') ? length : (await response.blob()).size;
}

/** `promise`, or `fallback` once `ms` passed: a browser busy elsewhere must not leave the card measuring. */
function within<T>(promise: Promise<T>, ms: number, fallback: T): Promise<T> {
  return Promise.race([promise, new Promise<T>((resolve) => setTimeout(() => resolve(fallback), ms))]);
}

/** The app's files and the model in Cache Storage (one `matchAll` per cache), and the paths held. */
async function cached(): Promise<{ appBytes: number; appFiles: number; modelBytes: number; held: Set<string> }> {
  const found = { appBytes: 0, appFiles: 0, modelBytes: 0, held: new Set<string>() };
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    const [requests, responses] = await Promise.all([cache.keys(), cache.matchAll()]);
    for (const request of requests) found.held.add(new URL(request.url).pathname);
    let bytes = 0;
    for (const response of responses) bytes += await sizeOf(response);
    if (name === FILES_CACHE) found.modelBytes += bytes;
    else {
      found.appBytes += bytes;
      found.appFiles += responses.length;
    }
  }
  return found;
}

/**
 * What Kutu keeps on this phone, part by part as each is known: Cache Storage, the browser's storage
 * estimate, and the release's file list (what "Save all screens" would download).
 */
async function measure(show: (usage: Usage | 'failed') => void): Promise<void> {
  const files = await within(cached(), 10_000, null);
  if (!files) return show('failed');
  const usage: Usage = { ...files, storedBytes: null, missingBytes: 0 };
  show({ ...usage });
  const estimate = await within(navigator.storage?.estimate?.() ?? Promise.resolve(null), 5000, null).catch(() => null);
  usage.storedBytes = estimate?.usage ?? null;
  show({ ...usage });
  const list = await within(
    fetch(`/${APP_FILES_FILE}`).then((res) => (res.ok ? (res.json() as Promise<AppFiles>) : null)),
    10_000,
    null,
  ).catch(() => null);
  for (const file of list?.all ?? []) if (!files.held.has(file.url)) usage.missingBytes += file.bytes;
  show({ ...usage });
}

/**
 * "Data used": how much the app has saved on the phone for offline use (its screens, the offline model)
 * and in all, and a button that saves the screens not opened yet, with the data it would cost
 * (docs/decisions/0037). Screens are otherwise saved when first opened, or all at once on Wi-Fi.
 */
export function DataUsageCard() {
  const { t } = useTranslation();
  const [usage, setUsage] = useState<Usage | null | 'failed'>(null);
  const [saving, setSaving] = useState(false);
  const [failed, setFailed] = useState(false);
  const refresh = useCallback(() => {
    measure(setUsage).catch(() => setUsage('failed'));
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
        {usage === null || usage === 'failed' ? (
          <Text size="sm" c="dimmed">
            {t(usage === null ? 'offline.data.measuring' : 'offline.data.unknown')}
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
