import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '../../../lib/notify.ts';
import { analysisKeys } from '../../analysis/api/analysis.ts';
import { notificationsKey } from '../../notifications/api/notifications.ts';
import { downloadOnWifi } from '../lib/model.ts';
import { flushQueue } from '../lib/queue.ts';
import { offlineSupported } from '../lib/store.ts';

/**
 * Farmers only, mounted once while signed in: fetches the offline model on Wi-Fi, and sends photos
 * diagnosed offline at start and whenever the network comes back.
 */
export function OfflineSync() {
  const { t } = useTranslation();
  const client = useQueryClient();
  useEffect(() => {
    if (!offlineSupported()) return;
    let alive = true;
    const send = async () => {
      const sent = await flushQueue();
      if (!alive || sent.length === 0) return;
      notifySuccess(t('offline.queue.sent', { count: sent.length }));
      await client.invalidateQueries({ queryKey: analysisKeys.all });
      await client.invalidateQueries({ queryKey: notificationsKey });
    };
    if (navigator.onLine) void send().then(() => downloadOnWifi());
    const online = () => void send();
    window.addEventListener('online', online);
    return () => {
      alive = false;
      window.removeEventListener('online', online);
    };
  }, [client, t]);
  return null;
}
