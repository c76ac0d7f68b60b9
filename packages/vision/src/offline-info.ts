import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

/** Written next to model.onnx by `npm run model:offline`: which file the phones download, and why. */
export interface OfflineFileInfo {
  /** model.int8.onnx when it agreed with the server on ≥ 99 % of the evaluation photos, else model.onnx. */
  file: string;
  quantised: boolean;
  bytes: number;
  sha256: string;
  float_bytes: number;
  int8_bytes: number | null;
  /** Share of evaluation photos whose answer (outcome, class, unsure) equals the server's. */
  agreement: { photos: number; float: number; int8: number | null };
}

export const OFFLINE_INFO_FILE = 'offline.json';
export const INT8_FILE = 'model.int8.onnx';
/** The quantised copy ships only at or above this agreement with the server's answers. */
export const MIN_INT8_AGREEMENT = 0.99;

export async function readOfflineInfo(modelDir: string): Promise<OfflineFileInfo | null> {
  try {
    return JSON.parse(await fs.readFile(path.join(modelDir, OFFLINE_INFO_FILE), 'utf8')) as OfflineFileInfo;
  } catch {
    return null;
  }
}

export const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
