/**
 * What the service worker downloads on a first visit (docs/decisions/0037, 0092), from the
 * built app (`npm run build` first):   node bench/precache.ts
 *
 * - now: the entries of dist/sw.js's precache list (what its install fetches: the signed-out app since 0092);
 * - the `first` set (a farmer's first screens, fetched once signed in);
 * - before: what the worker precached until 0037, every file its glob patterns matched (the same
 *   patterns and ignores, over the same dist), so both figures come from one build;
 * - the sign-in page's own files (index.html and the entry's script and styles): a first visit loads them
 *   anyway and the worker's fetch of them is answered by the HTTP cache, so the cost of the worker is
 *   the rest ("extra");
 * - the `offline` set (fetched when offline use is set up) and `all` (on Wi-Fi or on request).
 * Sizes decoded (as the issue counted them) and on the wire (brotli, as the server sends them).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Manifest } from 'vite';
import { staticFiles } from '../apps/web/scripts/screen-preloads.ts';
import { SCREEN_ADDRESSES } from '../apps/web/src/app/screen-addresses.ts';
import type { AppFiles } from '../apps/web/src/lib/app-files.ts';

const dist = path.resolve(import.meta.dirname, '../apps/web/dist');
if (!fs.existsSync(path.join(dist, 'sw.js'))) throw new Error('Build the app first: npm run build');
const manifest = JSON.parse(fs.readFileSync(path.join(dist, '.vite', 'manifest.json'), 'utf8')) as Manifest;
const appFiles = JSON.parse(fs.readFileSync(path.join(dist, 'app-files.json'), 'utf8')) as AppFiles;

const decoded = (file: string) => fs.statSync(path.join(dist, file)).size;
const wire = (file: string) =>
  fs.existsSync(path.join(dist, `${file}.br`)) ? fs.statSync(path.join(dist, `${file}.br`)).size : decoded(file);
const sum = (files: Iterable<string>) => {
  let bytes = 0;
  let br = 0;
  let n = 0;
  for (const f of new Set(files)) {
    bytes += decoded(f);
    br += wire(f);
    n += 1;
  }
  return { n, bytes, br };
};

const now = [...fs.readFileSync(path.join(dist, 'sw.js'), 'utf8').matchAll(/"url":"([^"]+)"/g)].map((m) => m[1]!);

// The glob of vite.config.ts until 0037: **/*.{js,css,html,svg,png,json}, less onnx, wasm, ort*, models/, .vite/.
function walk(dir: string): string[] {
  return fs.readdirSync(path.join(dist, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = dir ? `${dir}/${e.name}` : e.name;
    return e.isDirectory() ? walk(rel) : [rel];
  });
}
const before = walk('')
  .filter((f) => /\.(js|css|html|svg|png|json)$/.test(f))
  .filter((f) => !/\.(onnx|wasm)$/.test(f) && !path.basename(f).startsWith('ort') && !f.startsWith('models/'))
  .filter((f) => !f.startsWith('.vite/') && f !== 'sw.js' && f !== 'app-files.json');

const entry = [
  'index.html',
  ...staticFiles(
    manifest,
    Object.keys(manifest).filter((k) => manifest[k]!.isEntry),
  ),
];
const page = new Set(entry);
// A first session that signs in and opens the dashboard and the diagnosis loads these in any case.
const screen = (address: string) => SCREEN_ADDRESSES[address]!.map((m) => `src/${m}`).filter((k) => manifest[k]);
const session = new Set([
  ...entry,
  ...staticFiles(manifest, [...screen('/account'), ...screen('/account/addresses/image-analysis')]),
]);
const kib = (n: number) => `${(n / 1024).toFixed(0).padStart(5)} KiB`;
const row = (label: string, files: string[]) => {
  const all = sum(files);
  const extra = sum(files.filter((f) => !page.has(f)));
  const beyond = sum(files.filter((f) => !session.has(f)));
  console.log(
    `  ${label.padEnd(38)} ${String(all.n).padStart(4)} files ${kib(all.bytes)} ${kib(all.br)} br` +
      ` | ${String(extra.n).padStart(3)} files ${kib(extra.bytes)} ${kib(extra.br)} br` +
      ` | ${String(beyond.n).padStart(3)} files ${kib(beyond.bytes)} ${kib(beyond.br)} br`,
  );
};
console.log('Service worker downloads (decoded and brotli): in all | beyond the sign-in page | beyond a first');
console.log('session that signs in and opens the dashboard and the diagnosis (what those screens load anyway)');
row('sign-in page itself', entry);
row('before 0037 (every file)', before);
row('now (the signed-out app)', now);
row(
  'first set (once signed in)',
  appFiles.first.map((u) => u.slice(1)),
);
row(
  'offline set (offline use set up)',
  appFiles.offline.map((u) => u.slice(1)),
);
row(
  'all app files (Wi-Fi, or on request)',
  appFiles.all.map((f) => f.url.slice(1)),
);
