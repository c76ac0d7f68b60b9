import { useEffect, useState, useSyncExternalStore } from 'react';
import { Alert } from '@mantine/core';
import { useNetwork } from '@mantine/hooks';
import { IconCloudOff } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../lib/format.ts';
import { persistQueries, restoreQueries, savedQueries } from '../../lib/saved-queries.ts';

/** Keeps the user's last data on the phone; restored during the first render so pages start from it. */
export function useSavedQueries(userId: number | undefined) {
  const client = useQueryClient();
  useState(() => userId !== undefined && restoreQueries(client, userId));
  useEffect(() => (userId === undefined ? undefined : persistQueries(client, userId)), [client, userId]);
}

/** With no signal, says that the figures are the saved copy and how old it is. */
export function OfflineDataBanner() {
  const { t } = useTranslation();
  const { online } = useNetwork();
  const savedAt = useSyncExternalStore(savedQueries.subscribe, savedQueries.lastSavedAt);
  if (online) return null;
  return (
    <Alert role="status" color="gray" icon={<IconCloudOff size={18} />} mb="md" py="xs" data-testid="offline-banner">
      {savedAt === null
        ? t('shell.offlineNoData')
        : t('shell.offlineData', { when: formatDateTime(new Date(savedAt)) })}
    </Alert>
  );
}
