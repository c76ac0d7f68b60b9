import { type DBSchema, type IDBPDatabase, openDB } from 'idb';
import type { AnalysisCrop, OfflineModelInfo, Walk, WalkInput } from '@kutu/contract';
import type { DiagnosisCore } from '@kutu/vision/browser';

/** A photo diagnosed on the phone, waiting to be sent; its key makes every retry count once. */
export interface QueuedPhoto {
  key: string;
  userId: number;
  blob: Blob;
  filename: string;
  crop: AnalysisCrop;
  /** The phone's answer; absent for another leaf of an analysis (`analysisId`), which the server combines. */
  diagnosis?: DiagnosisCore;
  /** Another leaf of the same field for this analysis (docs/decisions/0040), sent to its photos. */
  analysisId?: number;
  /**
   * Another leaf of a field diagnosed on the phone: the queue key of its first leaf. It is sent to that
   * analysis's photos once the first leaf has become one on the server.
   */
  fieldOf?: string;
  /** The diagnosis this first leaf follows up, as the farmer said (the reminder's link or their choice). */
  followUpOf?: number;
  /** The farmer's field the photo is of (docs/decisions/0078), sent with the first leaf. */
  fieldId?: number;
  createdAt: string;
  /** Why the server refused it (it is not retried); null while it is waiting. */
  error: string | null;
}

/** A scouting walk counted with no signal, waiting to be sent; its key makes every retry count once. */
export interface QueuedWalk {
  key: string;
  userId: number;
  fieldId: number;
  /** What is sent: the stops, when the walk was made (`walked_at`), the stage said. */
  body: WalkInput & { walked_at: string };
  /** The answer the phone worked out (lib/offline/walks.ts), shown until the server's replaces it. */
  answer: Walk;
  /** Why the server refused it (it is not retried); null while it is waiting. */
  error: string | null;
}

interface OfflineDb extends DBSchema {
  /** 'current': the downloaded model's description; its file and the runtime live in Cache Storage. */
  model: { key: string; value: OfflineModelInfo };
  queue: { key: string; value: QueuedPhoto; indexes: { byUser: number } };
  walks: { key: string; value: QueuedWalk; indexes: { byUser: number } };
}

let opened: Promise<IDBPDatabase<OfflineDb>> | null = null;

/** IndexedDB, Cache Storage and WebAssembly: without all three (old browser, some private modes) there is no offline diagnosis. */
export const offlineSupported = () =>
  typeof indexedDB !== 'undefined' && typeof caches !== 'undefined' && typeof WebAssembly !== 'undefined';

export function offlineDb(): Promise<IDBPDatabase<OfflineDb>> {
  opened ??= openDB<OfflineDb>('kutu-offline', 2, {
    upgrade(db, oldVersion) {
      if (oldVersion < 1) {
        db.createObjectStore('model');
        db.createObjectStore('queue', { keyPath: 'key' }).createIndex('byUser', 'userId');
      }
      // Version 2: scouting walks counted offline (docs/decisions/0078).
      if (oldVersion < 2) db.createObjectStore('walks', { keyPath: 'key' }).createIndex('byUser', 'userId');
    },
  });
  return opened;
}

/** Cache Storage holds the model file (under its versioned URL) and the WASM runtime. */
export const FILES_CACHE = 'kutu-offline-files';
