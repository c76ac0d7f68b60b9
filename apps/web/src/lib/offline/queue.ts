import { useSyncExternalStore } from 'react';
import type { AnalysisCrop, AnalysisResult } from '@kutu/contract';
import { analysisApi, IDEMPOTENCY_KEY_HEADER } from '@kutu/contract/paths';
import type { DiagnosisCore } from '@kutu/vision/browser';
import { ApiError, request } from '../api.ts';
import i18n from '../i18n.ts';
import { session } from '../session.ts';
import { offlineDb, offlineSupported, type QueuedPhoto } from './store.ts';

let items: QueuedPhoto[] = [];
const listeners = new Set<() => void>();
const emit = () => {
  for (const l of listeners) l();
};

const userId = () => session.user()?.id ?? null;

async function reload() {
  const id = userId();
  const loaded =
    id === null || !offlineSupported() ? [] : await offlineDb().then((db) => db.getAllFromIndex('queue', 'byUser', id));
  // Nothing queued before or now: keep the same array, so nobody renders for nothing.
  if (loaded.length === 0 && items.length === 0) return;
  items = loaded.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  emit();
}

/** The signed-in user's photos waiting to be sent (and those the server refused). */
// Module-level, so React keeps one subscription per component: an inline function would re-subscribe
// on every render, and each first subscription reloads and renders again (an endless loop).
function subscribe(listener: () => void) {
  listeners.add(listener);
  if (listeners.size === 1) void reload();
  return () => listeners.delete(listener);
}
const snapshot = () => items;

export function useQueue(): QueuedPhoto[] {
  return useSyncExternalStore(subscribe, snapshot);
}

export async function enqueue(photo: {
  blob: Blob;
  filename: string;
  crop: AnalysisCrop;
  diagnosis?: DiagnosisCore;
  analysisId?: number;
}) {
  const id = userId();
  if (id === null) throw new Error(i18n.t('offline.errors.signIn'));
  const item: QueuedPhoto = {
    ...photo,
    key: crypto.randomUUID(),
    userId: id,
    createdAt: new Date().toISOString(),
    error: null,
  };
  await (await offlineDb()).put('queue', item);
  await reload();
  return item;
}

/** Errors worth retrying later: no network, expired session being renewed, server busy. */
const transient = (err: unknown) =>
  !(err instanceof ApiError) || err.status === 0 || err.status === 401 || err.status === 429 || err.status >= 500;

let flushing: Promise<AnalysisResult[]> | null = null;

/**
 * Sends every waiting photo with its idempotency key: a photo whose upload reached the server but
 * whose answer was lost is simply answered again with the same analysis. Stops at the first network
 * failure (still offline); a photo the server refuses keeps its reason and is not retried.
 */
export function flushQueue(): Promise<AnalysisResult[]> {
  flushing ??= (async () => {
    const sent: AnalysisResult[] = [];
    try {
      await reload();
      for (const item of items.filter((i) => i.error === null)) {
        const form = new FormData();
        // Another leaf of an analysis goes to its photos; the analysis already says the crop.
        if (item.analysisId === undefined) form.append('crop', item.crop);
        form.append('image', item.blob, item.filename);
        try {
          sent.push(
            await request<AnalysisResult>(
              item.analysisId === undefined ? analysisApi.detect : analysisApi.photosPath(item.analysisId),
              {
                method: 'POST',
                form,
                headers: { [IDEMPOTENCY_KEY_HEADER]: item.key },
              },
            ),
          );
          await (await offlineDb()).delete('queue', item.key);
        } catch (err) {
          if (transient(err)) break;
          await (await offlineDb()).put('queue', { ...item, error: (err as Error).message });
        }
      }
    } finally {
      await reload();
      flushing = null;
    }
    return sent;
  })();
  return flushing;
}
