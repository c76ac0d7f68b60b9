import fs from 'node:fs/promises';
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import sharp from 'sharp';
import type { PreparedItem } from './prepare.ts';
import { decodeRgb, toTensorData } from './preprocess.ts';
import { seededRandom } from './seeded-random.ts';

/** Side of the backbone's input; the served model decodes photos to this size too. */
export const FEATURE_INPUT = 224;
export const FEATURE_DIMS = 1280;
/** orig: the photo as served; hflip: mirrored; crop*: a random 55–85 % square of the photo (negatives). */
export type View = 'orig' | 'hflip' | 'crop1' | 'crop2' | 'crop3';

function mirrored(rgb: Buffer, size: number): Buffer {
  const out = Buffer.alloc(rgb.length);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++)
      rgb.copy(out, (y * size + (size - 1 - x)) * 3, (y * size + x) * 3, (y * size + x) * 3 + 3);
  }
  return out;
}

async function viewRgb(file: string, view: View, rand: () => number, size: number): Promise<Buffer> {
  if (view === 'orig') return decodeRgb(file, size);
  if (view === 'hflip') return mirrored(await decodeRgb(file, size), size);
  const big = 256;
  const rgb = await decodeRgb(file, big);
  const side = Math.round(big * (0.55 + 0.3 * rand()));
  const left = Math.floor(rand() * (big - side + 1));
  const top = Math.floor(rand() * (big - side + 1));
  return sharp(rgb, { raw: { width: big, height: big, channels: 3 } })
    .extract({ left, top, width: side, height: side })
    .resize(size, size, { fit: 'fill', kernel: 'lanczos3' })
    .raw()
    .toBuffer();
}

/**
 * Pooled features of the frozen backbone (an ONNX file with output `features`, N×1280) for every item and
 * view, computed with onnxruntime (about five times faster than PyTorch here). Writes `<dir>/<name>.f32`
 * (views × kept items × 1280 float32, little-endian) and `<dir>/<name>.json` (views, count, items, skipped).
 * Unreadable images are skipped and listed, so one bad upload cannot stop a retraining.
 */
export async function writeFeatures(
  dir: string,
  name: string,
  items: PreparedItem[],
  views: View[],
  backboneOnnx: string,
  opts: {
    threads?: number;
    onProgress?: (done: number, total: number) => void;
    signal?: AbortSignal;
    /** Input side of the backbone (default FEATURE_INPUT). */
    size?: number;
  } = {},
): Promise<{ count: number; skipped: string[] }> {
  const size = opts.size ?? FEATURE_INPUT;
  const session = await ort.InferenceSession.create(backboneOnnx, {
    intraOpNumThreads: opts.threads ?? 2,
    interOpNumThreads: 1,
    graphOptimizationLevel: 'all',
  });
  const rand = seededRandom(1234);
  const plane = 3 * size * size;
  const kept: PreparedItem[] = [];
  const skipped: string[] = [];
  const perView: Float32Array[][] = views.map(() => []);
  const batch = 16;
  try {
    for (let start = 0; start < items.length; start += batch) {
      opts.signal?.throwIfAborted();
      const chunk = items.slice(start, start + batch);
      const rgbs: Buffer[][] = [];
      const ok: PreparedItem[] = [];
      for (const item of chunk) {
        try {
          const perItem: Buffer[] = [];
          for (const view of views) perItem.push(await viewRgb(item.file, view, rand, size));
          rgbs.push(perItem);
          ok.push(item);
        } catch {
          skipped.push(item.file);
        }
      }
      if (ok.length === 0) continue;
      for (const [v] of views.entries()) {
        const input = new Float32Array(ok.length * plane);
        for (const [i, perItem] of rgbs.entries()) input.set(toTensorData(perItem[v], size), i * plane);
        const out = await session.run({
          input: new ort.Tensor('float32', input, [ok.length, 3, size, size]),
        });
        perView[v].push(Float32Array.from(out.features.data as Float32Array));
      }
      kept.push(...ok);
      opts.onProgress?.(Math.min(start + batch, items.length), items.length);
    }
  } finally {
    await session.release();
  }
  await fs.mkdir(dir, { recursive: true });
  const handle = await fs.open(path.join(dir, `${name}.f32`), 'w');
  try {
    for (const chunks of perView)
      for (const c of chunks) await handle.write(Buffer.from(c.buffer, c.byteOffset, c.byteLength));
  } finally {
    await handle.close();
  }
  await fs.writeFile(
    path.join(dir, `${name}.json`),
    JSON.stringify({ views, count: kept.length, dims: FEATURE_DIMS, items: kept, skipped }),
  );
  return { count: kept.length, skipped };
}
