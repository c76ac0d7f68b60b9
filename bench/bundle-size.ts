/**
 * Byte budget of the built web app (issue 13): for every route page, the compressed JS and CSS a phone
 * downloads to show it, measured from Vite's manifest after `npm run build`.
 *
 * A route costs the entry (index.html's script and its static imports and CSS), the route's layout
 * (the auth screens' or the account shell, both loaded lazily by the router) and the page's chunk, with
 * everything the layout and page can load later (static and dynamic imports, e.g. the password
 * meter's word list), but not other pages or layouts. What the entry itself loads on demand (the toast
 * container, on the first toast) is printed on its own line. Sizes are brotli (quality 11), as served to browsers that accept it; gzip is
 * printed beside. The budget of issue 13 (sign-in ≤ 150 KiB, any route ≤ 250 KiB) is marked; with
 * `--enforce` the script exits 1 when a route is over it (for CI once the app fits).
 *
 *   npm run build && node bench/bundle-size.ts [--json] [--enforce]
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

const KIB = 1024;
export const BUDGET = { signIn: 150 * KIB, anyRoute: 250 * KIB };
const SIGN_IN_PAGE = 'src/features/auth/pages/LoginPage.tsx';

const isPage = (key: string) => /\/pages\/[^/]+Page\.tsx$/.test(key);
const isLayout = (key: string) => /\/layout\/[^/]+Layout\.tsx$/.test(key);
const AUTH_LAYOUT = 'src/components/layout/AuthLayout.tsx';
const ACCOUNT_LAYOUT = 'src/components/layout/AccountLayout.tsx';
/** The layout the router wraps a page in (router.tsx): auth screens, static pages (none), the rest. */
function layoutOf(page: string): string | null {
  if (page.includes('/features/auth/')) return AUTH_LAYOUT;
  if (page.includes('/features/static/')) return null;
  return ACCOUNT_LAYOUT;
}

/** Files (JS and CSS) reachable from `keys`, following static imports and, if asked, dynamic ones. */
function closure(manifest: Manifest, keys: string[], followDynamic: boolean, skip = new Set<string>()): Set<string> {
  const files = new Set<string>();
  const seen = new Set(skip);
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) return;
    files.add(chunk.file);
    for (const css of chunk.css ?? []) files.add(css);
    for (const dep of chunk.imports ?? []) visit(dep);
    if (followDynamic) for (const dep of chunk.dynamicImports ?? []) if (!isPage(dep) && !isLayout(dep)) visit(dep);
  };
  for (const key of keys) visit(key);
  return files;
}

export interface RouteSize {
  page: string;
  brotli: number;
  gzip: number;
  raw: number;
  budget: number;
}

export function measureRoutes(distDir: string): {
  routes: RouteSize[];
  entryOnDemand: { files: string[]; raw: number; gzip: number; brotli: number };
} {
  const manifest: Manifest = JSON.parse(fs.readFileSync(path.join(distDir, '.vite/manifest.json'), 'utf8'));
  const entryKeys = Object.keys(manifest).filter((k) => manifest[k]?.isEntry);
  const entryFiles = closure(manifest, entryKeys, false);
  // Chunks of the entry: a page that imports shared code from them does not load what they load lazily.
  const entryChunks = new Set(Object.keys(manifest).filter((k) => entryFiles.has(manifest[k]?.file ?? '')));
  const sizeCache = new Map<string, { raw: number; gzip: number; brotli: number }>();
  const sizeOf = (file: string) => {
    let size = sizeCache.get(file);
    if (!size) {
      const bytes = fs.readFileSync(path.join(distDir, file));
      size = {
        raw: bytes.length,
        gzip: zlib.gzipSync(bytes, { level: 9 }).length,
        brotli: zlib.brotliCompressSync(bytes, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
      };
      sizeCache.set(file, size);
    }
    return size;
  };
  const sum = (files: Set<string>) => {
    const total = { raw: 0, gzip: 0, brotli: 0 };
    for (const file of files) {
      const s = sizeOf(file);
      total.raw += s.raw;
      total.gzip += s.gzip;
      total.brotli += s.brotli;
    }
    return total;
  };
  const routes = Object.keys(manifest)
    .filter(isPage)
    .sort()
    .map((page) => {
      const layout = layoutOf(page);
      const keys = layout ? [layout, page] : [page];
      const files = new Set([...entryFiles, ...closure(manifest, keys, true, entryChunks)]);
      return { page, ...sum(files), budget: page === SIGN_IN_PAGE ? BUDGET.signIn : BUDGET.anyRoute };
    });
  const lazyFromEntry = [...entryChunks]
    .flatMap((k) => manifest[k]?.dynamicImports ?? [])
    .filter((k) => !isPage(k) && !isLayout(k));
  const onDemand = closure(manifest, lazyFromEntry, true, entryChunks);
  return { routes, entryOnDemand: { files: [...onDemand], ...sum(onDemand) } };
}

if (import.meta.main) {
  const distDir = path.resolve(import.meta.dirname, '../apps/web/dist');
  if (!fs.existsSync(path.join(distDir, '.vite/manifest.json'))) {
    console.error('No build manifest: run `npm run build` first.');
    process.exit(1);
  }
  const { routes, entryOnDemand } = measureRoutes(distDir);
  const kib = (n: number) => `${(n / KIB).toFixed(1)} KiB`;
  if (process.argv.includes('--json')) console.log(JSON.stringify(routes));
  else {
    console.log('route page'.padEnd(58), 'brotli'.padStart(11), 'gzip'.padStart(11), 'raw'.padStart(12), ' budget');
    for (const r of routes) {
      const mark = r.brotli > r.budget ? '  OVER' : '';
      console.log(
        r.page.replace('src/features/', '').padEnd(58),
        kib(r.brotli).padStart(11),
        kib(r.gzip).padStart(11),
        kib(r.raw).padStart(12),
        ` ${kib(r.budget)}${mark}`,
      );
    }
    console.log(
      'loaded by the entry on demand (toasts)'.padEnd(58),
      kib(entryOnDemand.brotli).padStart(11),
      kib(entryOnDemand.gzip).padStart(11),
      kib(entryOnDemand.raw).padStart(12),
    );
  }
  const over = routes.filter((r) => r.brotli > r.budget);
  if (over.length) {
    console.log(`${over.length} of ${routes.length} routes over the byte budget.`);
    if (process.argv.includes('--enforce')) process.exit(1);
  } else console.log(`All ${routes.length} routes within the byte budget.`);
}
