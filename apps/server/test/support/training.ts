import fs from 'node:fs';
import path from 'node:path';

/**
 * A process line of any of the Python trainer's modules (`python3 -m trainer.train`, `trainer.train_head`,
 * `trainer.features`, or a script path `trainer/train.py`).
 */
export const TRAINER_SCRIPT = /trainer[./]\w+/;

/** The rust3 dataset shipped in the repository (real leaf photos). */
export const RUST3 = path.resolve(import.meta.dirname, '../../../../datasets/rust3');

/** The first `n` photos of a class folder of rust3, as buffers. */
export function rust3Photos(label: string, n: number, skip = 0): { name: string; data: Buffer }[] {
  const dir = path.join(RUST3, label);
  return fs
    .readdirSync(dir)
    .filter((f) => /\.(jpe?g|png)$/i.test(f))
    .sort()
    .slice(skip, skip + n)
    .map((name) => ({ name, data: fs.readFileSync(path.join(dir, name)) }));
}

/** A multipart body as a browser's FormData would send it, for `app.inject`. */
export async function multipart(
  files: { field?: string; name: string; data: Buffer; type?: string }[],
  fields: Record<string, string> = {},
): Promise<{ payload: Buffer; headers: Record<string, string> }> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const f of files) {
    const type = f.type ?? (f.name.endsWith('.png') ? 'image/png' : 'image/jpeg');
    form.append(f.field ?? 'image', new Blob([new Uint8Array(f.data)], { type }), f.name);
  }
  const req = new Request('http://localhost/', { method: 'POST', body: form });
  return {
    payload: Buffer.from(await req.arrayBuffer()),
    headers: { 'content-type': req.headers.get('content-type') ?? '' },
  };
}
