import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { cacheFirstScreens } from '../../lib/app-files.ts';
import { notifySuccess } from '../../lib/notify.ts';
import { whenSettled } from '../../lib/when-settled.ts';
import { analysisKeys } from '../../api/analysis.ts';
import { notificationsKey } from '../../api/notifications.ts';
import { downloadOnWifi } from '../../lib/offline/model.ts';
import { flushQueue } from '../../lib/offline/queue.ts';
import { offlineDb, offlineSupported } from '../../lib/offline/store.ts';
import { session } from '../../lib/session.ts';

/**
 * Sends the walks counted offline, if any wait: the walk code (with the field rules and the fields'
 * strings) loads only then, so every account screen does not download it.
 */
async function flushWalks() {
  const id = session.user()?.id;
  if (id === undefined || (await (await offlineDb()).countFromIndex('walks', 'byUser', id)) === 0) return null;
  return (await import('../../lib/offline/walks.ts')).flushWalksAndSay();
}

/**
 * Farmers only, mounted once while signed in: keeps the first screens for use offline, fetches the offline
 * model on Wi-Fi, and sends photos diagnosed and walks counted offline once the page has settled and
 * whenever the network comes back.
 */
export function OfflineSync() {
  const { t } = useTranslation();
  const client = useQueryClient();
  // The first screens for use with no signal, once the screen now opening has settled.
  useEffect(() => {
    void whenSettled().then(() => (navigator.onLine ? cacheFirstScreens() : null));
  }, []);
  useEffect(() => {
    if (!offlineSupported()) return;
    let alive = true;
    const send = async () => {
      const sent = await flushQueue();
      const walks = await flushWalks();
      if (!alive) return;
      if (walks) {
        notifySuccess(walks);
        // The fields' lists and walks, off screen too, for the saved copy; loaded only now, as it would
        // otherwise join every account screen.
        await (await import('../../api/fields.ts')).reloadFields(client);
      }
      if (sent.length === 0) return;
      notifySuccess(t('offline.queue.sent', { count: sent.length }));
      await client.invalidateQueries({ queryKey: analysisKeys.all });
      await client.invalidateQueries({ queryKey: notificationsKey });
    };
    // At start, not before the first screen has settled (lib/when-settled.ts).
    void whenSettled().then(async () => {
      if (!alive || !navigator.onLine) return;
      await send();
      await downloadOnWifi();
    });
    const online = () => void send();
    window.addEventListener('online', online);
    return () => {
      alive = false;
      window.removeEventListener('online', online);
    };
  }, [client, t]);
  return null;
}
