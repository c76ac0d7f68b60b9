import { useSyncExternalStore } from 'react';
import type { OfflineModelInfo } from '@kutu/contract';
import { offlineModelApi } from '@kutu/contract/paths';
import runtimeUrl from 'onnxruntime-web/ort-wasm-simd-threaded.wasm?url';
import { ApiError, fetchFile, http, networkError } from '../api.ts';
import { cacheAppFiles, onUnmeteredNetwork } from '../app-files.ts';
import i18n from '../i18n.ts';
import { FILES_CACHE, offlineDb, offlineSupported } from './store.ts';

export { runtimeUrl };

/**
 * The phone's copy of the model: none, downloading (with progress), ready (an older version keeps
 * working offline while a newer one waits for Wi-Fi or a tap), or failed (with the reason).
 */
export interface OfflineModelState {
  status: 'unknown' | 'none' | 'downloading' | 'ready' | 'failed';
  /** The stored model. */
  stored: OfflineModelInfo | null;
  /** The server's active model, when it was reachable. */
  latest: OfflineModelInfo | null;
  /** Bytes to download: model file + runtime (null until known). */
  downloadBytes: number | null;
  received: number;
  error: string | null;
}

let state: OfflineModelState = {
  status: 'unknown',
  stored: null,
  latest: null,
  downloadBytes: null,
  received: 0,
  error: null,
};
const listeners = new Set<() => void>();
function set(next: Partial<OfflineModelState>) {
  state = { ...state, ...next };
  for (const l of listeners) l();
}

export function useOfflineModel(): OfflineModelState {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => state,
  );
}

export const needsUpdate = (s: OfflineModelState) =>
  s.latest !== null && (s.stored === null || s.stored.version !== s.latest.version);

/**
 * The server's info for the very file the phone holds (same version and checksum) replaces the stored one, so
 * the card's settings (cuts, answer settings) and the advice follow the server without a new download; null
 * when nothing is stored or the file differs (that waits for `downloadOfflineModel`).
 */
export const sameFileInfo = (stored: OfflineModelInfo | null, latest: OfflineModelInfo): OfflineModelInfo | null =>
  stored && stored.version === latest.version && stored.sha256 === latest.sha256 ? latest : null;

/** The runtime's size as it travels: brotli or gzip where the server and browser agree (2.7 of 14 MB). */
async function runtimeBytes(): Promise<number> {
  const res = await fetch(runtimeUrl, { method: 'HEAD' });
  return Number(res.headers.get('content-length') ?? 0) || __ORT_WASM_BYTES__;
}

/** Reads what is stored, and (online) what the server serves now with the download size. */
export async function refreshOfflineModel(): Promise<void> {
  if (!offlineSupported()) return;
  const stored = (await offlineDb().then((db) => db.get('model', 'current'))) ?? null;
  set({ stored, status: state.status === 'downloading' ? 'downloading' : stored ? 'ready' : 'none' });
  try {
    const latest = await http.get<OfflineModelInfo>(offlineModelApi.info);
    const refreshed = sameFileInfo(stored, latest);
    if (refreshed) {
      await (await offlineDb()).put('model', refreshed, 'current');
      set({ stored: refreshed });
    }
    const cache = await caches.open(FILES_CACHE);
    const haveRuntime = (await cache.match(runtimeUrl)) !== undefined;
    set({ latest, downloadBytes: latest.bytes + (haveRuntime ? 0 : await runtimeBytes()) });
  } catch {
    // Offline or signed out: the stored model is all there is.
  }
}

/**
 * Reports progress in bytes on the wire. A compressed response hands over more (decoded) bytes than its
 * Content-Length; `decodedBytes`, when known, scales them back.
 */
async function fetchWithProgress(
  url: string,
  auth: boolean,
  onBytes: (n: number) => void,
  decodedBytes?: number,
): Promise<Blob> {
  const res = await fetchFile(url, { auth });
  if (!res.ok || !res.body)
    throw new ApiError(res.status, 'HTTP_ERROR', i18n.t('shell.requestFailed', { status: res.status }));
  const wireBytes = Number(res.headers.get('content-length') ?? 0);
  const scale = decodedBytes && wireBytes && wireBytes < decodedBytes ? wireBytes / decodedBytes : 1;
  const reader = res.body.getReader();
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    onBytes(value.length * scale);
  }
  return new Blob(chunks, { type: 'application/octet-stream' });
}

async function hex(data: ArrayBuffer): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', data);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

let running: Promise<void> | null = null;

/**
 * Downloads the server's active model (checked against its SHA-256) and the WASM runtime into Cache
 * Storage, then records it; older model files are deleted. One download at a time.
 */
export function downloadOfflineModel(): Promise<void> {
  running ??= (async () => {
    set({ status: 'downloading', received: 0, error: null });
    try {
      if (!state.latest) await refreshOfflineModel();
      const latest = state.latest;
      if (!latest) throw networkError();
      const cache = await caches.open(FILES_CACHE);
      const onBytes = (n: number) => set({ received: state.received + n });
      if (!(await cache.match(runtimeUrl))) {
        const runtime = await fetchWithProgress(runtimeUrl, false, onBytes, __ORT_WASM_BYTES__);
        await cache.put(runtimeUrl, new Response(runtime, { headers: { 'content-type': 'application/wasm' } }));
      }
      const file = await fetchWithProgress(latest.file_url, true, onBytes);
      if ((await hex(await file.arrayBuffer())) !== latest.sha256) {
        throw new Error(i18n.t('offline.errors.damaged'));
      }
      await cache.put(latest.file_url, new Response(file));
      for (const req of await cache.keys()) {
        const path = new URL(req.url).pathname;
        if (path.startsWith('/api/offline-model/') && path !== latest.file_url) await cache.delete(req);
      }
      await (await offlineDb()).put('model', latest, 'current');
      // The screens that diagnose offline, with everything they load on a tap (the engine, dialogs, the
      // languages): the worker precached only their first render (docs/decisions/0037).
      await cacheAppFiles('offline');
      set({ stored: latest, status: 'ready', downloadBytes: 0 });
    } catch (err) {
      set({ status: state.stored ? 'ready' : 'failed', error: (err as Error).message });
    } finally {
      running = null;
    }
  })();
  return running;
}

/**
 * After sign-in: the model is fetched by itself only on Wi-Fi (where the browser says so; never on
 * cellular or an unknown connection) when it is missing or the server has a newer version.
 */
export async function downloadOnWifi(): Promise<void> {
  await refreshOfflineModel();
  if (onUnmeteredNetwork() && needsUpdate(state)) await downloadOfflineModel();
}

/** The stored model file and runtime, for the inference engine. */
export async function storedFiles(): Promise<{ info: OfflineModelInfo; model: ArrayBuffer; runtime: ArrayBuffer }> {
  const info = await offlineDb().then((db) => db.get('model', 'current'));
  if (!info) throw new Error(i18n.t('offline.errors.notDownloaded'));
  const cache = await caches.open(FILES_CACHE);
  const [model, runtime] = await Promise.all([cache.match(info.file_url), cache.match(runtimeUrl)]);
  if (!model || !runtime) throw new Error(i18n.t('offline.errors.filesMissing'));
  return { info, model: await model.arrayBuffer(), runtime: await runtime.arrayBuffer() };
}
