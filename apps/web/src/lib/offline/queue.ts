import type { AnalysisCrop, AnalysisResult } from '@kutu/contract';
import { analysisApi, IDEMPOTENCY_KEY_HEADER } from '@kutu/contract/paths';
import type { DiagnosisCore } from '@kutu/vision/browser';
import { ApiError, request } from '../api.ts';
import i18n from '../i18n.ts';
import { session } from '../session.ts';
import { offlineDb, offlineSupported, type QueuedPhoto } from './store.ts';
import { userList } from './user-list.ts';

const photos = userList<QueuedPhoto>(
  async (id) => (offlineSupported() ? (await offlineDb()).getAllFromIndex('queue', 'byUser', id) : []),
  (a, b) => a.createdAt.localeCompare(b.createdAt),
);
const reload = photos.reload;
const userId = () => session.user()?.id ?? null;

/** The signed-in user's photos waiting to be sent (and those the server refused). */
export function useQueue(): QueuedPhoto[] {
  return photos.use();
}

export async function enqueue(photo: {
  blob: Blob;
  filename: string;
  crop: AnalysisCrop;
  diagnosis?: DiagnosisCore;
  analysisId?: number;
  fieldOf?: string;
  followUpOf?: number;
  fieldId?: number;
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
export const transient = (err: unknown) =>
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
    // The server's analysis of each field's first leaf sent in this round, for the field's other leaves.
    const fields = new Map<string, number>();
    try {
      await reload();
      for (const item of photos.snapshot().filter((i) => i.error === null)) {
        const analysisId = item.analysisId ?? (item.fieldOf ? fields.get(item.fieldOf) : undefined);
        // Its first leaf is not on the server yet: it waits for it.
        if (item.fieldOf && analysisId === undefined) continue;
        const form = new FormData();
        // Another leaf of an analysis goes to its photos; the analysis already says the crop.
        if (analysisId === undefined) form.append('crop', item.crop);
        if (analysisId === undefined && item.followUpOf) form.append('follow_up_of', String(item.followUpOf));
        if (analysisId === undefined && item.fieldId) form.append('field_id', String(item.fieldId));
        form.append('image', item.blob, item.filename);
        const db = await offlineDb();
        const others = photos.snapshot().filter((i) => i.fieldOf === item.key);
        try {
          const result = await request<AnalysisResult>(
            analysisId === undefined ? analysisApi.detect : analysisApi.photosPath(analysisId),
            {
              method: 'POST',
              form,
              headers: { [IDEMPOTENCY_KEY_HEADER]: item.key },
            },
          );
          sent.push(result);
          // The field's other leaves now know their analysis, should this round stop before them.
          if (analysisId === undefined && others.length > 0) {
            fields.set(item.key, result.id);
            for (const o of others) await db.put('queue', { ...o, analysisId: result.id });
          }
          await db.delete('queue', item.key);
        } catch (err) {
          if (transient(err)) break;
          const error = (err as Error).message;
          for (const o of [item, ...others]) await db.put('queue', { ...o, error });
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
