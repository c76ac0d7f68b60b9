import fs from 'node:fs/promises';
import path from 'node:path';
import { decodeRgb } from './preprocess.ts';

export interface PreparedItem {
  file: string;
  label: string;
  source?: string;
  crop?: string;
  setting?: string;
}

/**
 * Writes `<dir>/<name>.bin` (count×size×size×3 RGB bytes, decoded by the serving pipeline) and
 * `<dir>/<name>.json` (size, count, items) for the Python trainer. Unreadable images are skipped and
 * listed in the JSON, so one bad upload cannot stop a retraining.
 */
export async function prepareSet(
  dir: string,
  name: string,
  items: PreparedItem[],
  size: number,
  onProgress?: (done: number, total: number) => void,
): Promise<{ count: number; skipped: string[] }> {
  await fs.mkdir(dir, { recursive: true });
  const handle = await fs.open(path.join(dir, `${name}.bin`), 'w');
  const kept: PreparedItem[] = [];
  const skipped: string[] = [];
  try {
    for (const [i, item] of items.entries()) {
      try {
        const rgb = await decodeRgb(item.file, size);
        await handle.write(rgb);
        kept.push(item);
      } catch {
        skipped.push(item.file);
      }
      if (onProgress && (i % 200 === 0 || i === items.length - 1)) onProgress(i + 1, items.length);
    }
  } finally {
    await handle.close();
  }
  await fs.writeFile(
    path.join(dir, `${name}.json`),
    JSON.stringify({ size, count: kept.length, items: kept, skipped }),
  );
  return { count: kept.length, skipped };
}
