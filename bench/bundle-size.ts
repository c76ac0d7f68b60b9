/**
 * Byte budget of the built web app (docs/decisions/0016): for every route page, the compressed JS and CSS a phone
 * downloads to show it, measured from Vite's manifest after `npm run build`.
 *
 * Counting rule: what the route's first render needs, i.e. the entry (index.html's script: React DOM and the
 * light modules, decision 0077), then, but at the sign-in screen, the full app (app/App.tsx: Mantine,
 * React Router, i18next, the router; src/main.tsx imports it), then the route's layout (the auth screens'
 * or the account shell) and page, which the router loads lazily, with their static imports and CSS (Vite
 * preloads those with the chunk). The sign-in screen is the entry and its page, which src/main.tsx shows
 * by itself.
 * Dynamic `import()`s below the layout and page run later, when the user chooses something: the SMS
 * password reset, the password meter's word list (on typing), the toast package (on the first notice),
 * the on-phone diagnosis engine (once the farmer has downloaded the offline model), a dialog or a tab.
 * A few parts load just after the screen shows, behind a spinner (components/OnDemand.tsx `Deferred`):
 * the expert's resource editor, the weekly-availability form, the post form beside the board on a wide
 * screen (on a phone it opens on a choice). They bring the contract's schemas (zod, ~30 KiB). They are
 * not in the route's figure but are listed, with their size, by `--on-demand`. Languages: each locale file is
 * built in parts (apps/web/src/lib/locale-parts.ts): the screens before sign-in's strings, the
 * account screens', and those of one kind of screen (staff, officer, fields) or one feature (community,
 * consultations, outbreak), each counted only for a page that brings it. English's first part is in the
 * entry; its account and screen parts, like a language's, come with the account shell and the screens
 * only on a phone set to English (lib/i18n.ts, decision 0121). A phone set to
 * Kiswahili or Luganda downloads that language's first part at start and its account part with the
 * account shell, so the figure adds the largest language's parts the route needs (the worst single
 * language, English's account part among them), shown in its own column. The terms page renders its document in the phone's
 * language at once: the largest document is counted. bench/bundle-requests.ts
 * checks the rule in Chromium: a route's first load requests no script or style outside its figure.
 * Sizes are brotli (quality 11), as served to browsers that accept it; gzip is printed beside.
 *
 * The budget (sign-in ≤ 100 KiB, a screen a browser can open first ≤ 250 KiB, a farmer's first screens
 * ≤ 200 KiB, any other route ≤ 230 KiB; decisions 0092, 0114 and 0121) holds what the phone transfers for the screen, as Chromium counts
 * it: those files, and beside them the address's index.html (with its preload links, brotli as the
 * server sends it), the icon index.html names (the favicon), and each reply's headers (HTTP/1.1 repeats
 * them: `REPLY_HEADER_BYTES`, the most bench/bundle-requests.ts saw Chromium receive). The service worker,
 * its precache and the web manifest come once the screen has settled (app/service-worker.ts): not
 * counted here; bench/first-visit.ts measures the whole first visit with them in Chromium.
 * bench/bundle-requests.ts loads the routes in Chromium and fails when it transfers more than this counts.
 * The transfer is held to the budget on the screens a browser can open first (signed out: sign-in and
 * sign-up, the other auth screens, the static pages). A signed-in screen's browser signed in here before,
 * and holds the entry and the app's chunk: its files are held to the budget, and its cold transfer is
 * printed (each of its 50 to 76 replies adds its headers on HTTP/1.1; an HTTP/2 proxy compresses them).
 * With `--enforce` the script exits 1 when a route is over its budget.
 *
 *   npm run build && node bench/bundle-size.ts [--json] [--on-demand] [--enforce]
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { Manifest } from 'vite';
import { SCREEN_PRELOADS_FILE, type ScreenPreloads, withScreenPreloads } from '@kutu/contract/screen-preloads';
import { staticFiles } from '../apps/web/scripts/screen-preloads.ts';
import {
  ACCOUNT_LAYOUT,
  ADDRESS_MODULES,
  APP,
  SCREEN_ADDRESSES,
  SIGN_IN,
  SIGN_IN_ADDRESSES,
} from '../apps/web/src/app/screen-addresses.ts';

const KIB = 1024;
/**
 * Decision 0092: a screen a browser can open first (signed out) 250 KiB, as 0016 set it; decision 0114:
 * a signed-in route's files 230 KiB (256 before); decision 0121: a farmer's first screens' files 200 KiB
 * (`FARMER_SCREENS`). What a first visit transfers with the service worker's precache is measured by
 * bench/first-visit.ts (also 250 KiB).
 */
export const BUDGET = { signIn: 100 * KIB, firstScreen: 250 * KIB, anyRoute: 230 * KIB, farmerScreen: 200 * KIB };
/** A farmer's first screens (decision 0121): the dashboard, the upload, the fields, a field and its walk. */
export const FARMER_SCREENS: readonly string[] = [
  'src/features/dashboard/pages/DashboardPage.tsx',
  'src/features/analysis/pages/UploadImagePage.tsx',
  'src/features/fields/pages/FieldsPage.tsx',
  'src/features/fields/pages/FieldPage.tsx',
  'src/features/fields/pages/WalkPage.tsx',
];
/**
 * A reply's headers as Chromium receives them from the server (HTTP/1.1), at most: index.html's (the
 * security policy and the rest of a document's), a plain file's (the favicon), a hashed script's or
 * style's (web-app.ts sends those no document-only headers). bench/bundle-requests.ts fails when a reply
 * has more.
 */
export const REPLY_HEADER_BYTES = { document: 920, plain: 1020, hashed: 400 };
const SIGN_IN_PAGE = `src/${SIGN_IN}`;

const isPage = (key: string) => /\/pages\/[^/]+Page\.tsx$/.test(key);
const isLayout = (key: string) => /\/layout\/[^/]+Layout\.tsx$/.test(key);
/** The layout the router wraps a page in, from the router's table of addresses (none for static pages). */
function layoutOf(page: string): string | null {
  const modules = Object.values(SCREEN_ADDRESSES).find((m) => `src/${m.at(-1)}` === page);
  if (!modules) throw new Error(`${page} is at no address of apps/web/src/app/screen-addresses.ts`);
  return modules.length > 1 ? `src/${modules[0]}` : null;
}
/** Whether the entry shows the page without the full app (the sign-in screen, src/main.tsx). */
const withoutApp = (page: string) =>
  SIGN_IN_ADDRESSES.some(
    (address) => ADDRESS_MODULES[address]?.[0] !== APP && `src/${SCREEN_ADDRESSES[address]?.at(-1)}` === page,
  );

const LANGUAGE_FILE = /\/locales\/([\w-]+)\.json(?:\?part=(\w+))?$/;
const isLanguage = (key: string) => LANGUAGE_FILE.test(key);
const TERMS_DOCUMENT = /\/static\/terms\/Terms\w+\.tsx$/;

/**
 * Files (JS and CSS) of `keys` and their static imports, skipping the chunks in `skip`; `lazy` collects
 * the dynamic imports met on the way (other pages and layouts aside: those are other routes).
 */
function closure(manifest: Manifest, keys: string[], skip?: Set<string>, lazy = new Set<string>()): Set<string> {
  return staticFiles(manifest, keys, skip, (dep) => {
    if (!isPage(dep) && !isLayout(dep)) lazy.add(dep);
  });
}

interface Size {
  raw: number;
  gzip: number;
  brotli: number;
}

export interface RouteSize extends Size {
  page: string;
  /**
   * What the phone transfers to show the route (the budget's figure): `brotli`, the address's index.html,
   * the icons it names, and every reply's headers.
   */
  transfer: number;
  /** Replies: the document, its icons, the files and the largest language's files. */
  requests: number;
  /** The first render's files (JS and CSS), the language file aside. */
  files: string[];
  /** Brotli bytes of the largest language's files the route needs (English's first part aside), included in `brotli`. */
  language: number;
  /** What the route can load later, on the user's choice or just after it shows: not in the figure. */
  onDemand: { key: string; brotli: number; files: string[] }[];
  budget: number;
  /** What the budget holds: the transfer on a screen a browser can open first, else the files. */
  held: 'transfer' | 'files';
}

const brotli = (bytes: Buffer | string) =>
  zlib.brotliCompressSync(bytes, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }).length;

/** The address the router shows `page` at (a pattern such as `/account/addresses/:id` stands for itself). */
function addressOf(page: string): string {
  const found = Object.entries(SCREEN_ADDRESSES).find(([, modules]) => `src/${modules.at(-1)}` === page);
  if (!found) throw new Error(`${page} is at no address of apps/web/src/app/screen-addresses.ts`);
  return found[0];
}

export function measureRoutes(distDir: string): { routes: RouteSize[]; languages: Record<string, number> } {
  const manifest: Manifest = JSON.parse(fs.readFileSync(path.join(distDir, '.vite/manifest.json'), 'utf8'));
  const html = fs.readFileSync(path.join(distDir, 'index.html'), 'utf8');
  const preloads: ScreenPreloads = JSON.parse(fs.readFileSync(path.join(distDir, SCREEN_PRELOADS_FILE), 'utf8'));
  // The icons index.html names that Chromium fetches (Safari's apple-touch-icon aside), once each: the favicon.
  const icons = [
    ...new Set(
      [...html.matchAll(/<(?:link|img)\b[^>]*?(?:href|src)="\/([^"/]+\.(?:svg|png))"[^>]*>/g)]
        .filter((m) => !m[0].includes('apple-touch-icon'))
        .map((m) => m[1]!),
    ),
  ];
  const iconBytes = icons.reduce((a, f) => {
    const br = path.join(distDir, `${f}.br`);
    return a + (fs.existsSync(br) ? fs.statSync(br).size : fs.statSync(path.join(distDir, f)).size);
  }, 0);
  const sizeCache = new Map<string, Size>();
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
  const sum = (files: Iterable<string>) => {
    const total = { raw: 0, gzip: 0, brotli: 0 };
    for (const file of files) {
      const s = sizeOf(file);
      total.raw += s.raw;
      total.gzip += s.gzip;
      total.brotli += s.brotli;
    }
    return total;
  };
  const lazyOfEntry = new Set<string>();
  const entryKeys = ['index.html'];
  const entryFiles = closure(manifest, entryKeys, undefined, lazyOfEntry);
  const entryChunks = new Set(Object.keys(manifest).filter((k) => entryFiles.has(manifest[k]?.file ?? '')));
  // Language files: every language's parts but English's first, which is in the entry (counted with it).
  const languageKeys = Object.keys(manifest).filter(isLanguage);
  const languages = Object.fromEntries(languageKeys.map((k) => [k, sizeOf(manifest[k]!.file).brotli]));
  /**
   * The largest language's files a route needs: the account part only with the account shell, a screen
   * part (staff, officer, fields, a feature's) only with a page that brings it (lib/<part>-strings.ts).
   */
  const languageSizeFor = (layout: string | null, screenParts: Set<string>): Size & { files: number } => {
    const byLanguage = new Map<string, string[]>();
    for (const key of languageKeys) {
      const [, language, part] = LANGUAGE_FILE.exec(key)!;
      if (part === 'account' && layout !== `src/${ACCOUNT_LAYOUT}`) continue;
      if (part && part !== 'first' && part !== 'account' && !screenParts.has(part)) continue;
      byLanguage.set(language!, [...(byLanguage.get(language!) ?? []), manifest[key]!.file]);
    }
    const sizes = [...byLanguage.values()].map((files) => ({ ...sum(files), files: files.length }));
    return sizes.reduce((a, b) => (b.brotli > a.brotli ? b : a), { raw: 0, gzip: 0, brotli: 0, files: 0 });
  };
  const pages = Object.keys(manifest).filter(isPage).sort();
  const routes = pages.map((page) => {
    const layout = layoutOf(page);
    const lazy = new Set(lazyOfEntry);
    // The full app (src/main.tsx loads it for every address but sign-in's), the layout and the page.
    const modules = [...(withoutApp(page) ? [] : [`src/${APP}`]), ...(layout ? [layout] : []), page];
    const own = closure(manifest, modules, entryChunks, lazy);
    const files = new Set([...entryFiles, ...own]);
    // The terms page renders its language's whole document at once: the largest one is counted.
    const documents = (manifest[page]?.dynamicImports ?? []).filter((k) => TERMS_DOCUMENT.test(k));
    const document = documents
      .map((k) => [...closure(manifest, [k], new Set([...entryChunks, ...keysOf(files)]))])
      .reduce<string[]>((a, b) => (sum(b).brotli > sum(a).brotli ? b : a), []);
    for (const file of document) files.add(file);
    for (const k of documents) lazy.delete(k);
    const total = sum(files);
    // A page that brings a screen part re-exports lib/<part>-strings.ts (staff, officer, fields, a feature's).
    const source = fs.readFileSync(path.join(distDir, '..', page), 'utf8');
    const screenParts = new Set([...source.matchAll(/lib\/(\w+)-strings\.ts/g)].map((m) => m[1]!));
    const languageSize = languageSizeFor(layout, screenParts);
    // What the on-demand chunks add beyond the route's own files (their shared imports are there already).
    const onDemand = [...lazy]
      .filter((k) => !isLanguage(k) && !k.endsWith('/pseudo.ts'))
      .map((key) => {
        const later = [...closure(manifest, [key], new Set([...entryChunks, ...keysOf(files)]))];
        return { key, brotli: sum(later).brotli, files: later };
      })
      .filter((d) => d.files.length > 0);
    const indexHtml = brotli(withScreenPreloads(html, addressOf(page), preloads));
    const headers =
      REPLY_HEADER_BYTES.document +
      icons.length * REPLY_HEADER_BYTES.plain +
      (files.size + languageSize.files) * REPLY_HEADER_BYTES.hashed;
    return {
      page,
      files: [...files],
      transfer: total.brotli + languageSize.brotli + indexHtml + iconBytes + headers,
      requests: 1 + icons.length + files.size + languageSize.files,
      raw: total.raw + languageSize.raw,
      gzip: total.gzip + languageSize.gzip,
      brotli: total.brotli + languageSize.brotli,
      language: languageSize.brotli,
      onDemand,
      budget:
        page === SIGN_IN_PAGE
          ? BUDGET.signIn
          : layout === `src/${ACCOUNT_LAYOUT}`
            ? FARMER_SCREENS.includes(page)
              ? BUDGET.farmerScreen
              : BUDGET.anyRoute
            : BUDGET.firstScreen,
      held: layout === `src/${ACCOUNT_LAYOUT}` ? ('files' as const) : ('transfer' as const),
    };
  });
  function keysOf(files: Set<string>) {
    return Object.keys(manifest).filter((k) => files.has(manifest[k]?.file ?? ''));
  }
  return { routes, languages };
}

/** The figure a route's budget holds. */
export const heldFigure = (r: RouteSize) => (r.held === 'transfer' ? r.transfer : r.brotli);

if (import.meta.main) {
  const distDir = path.resolve(import.meta.dirname, '../apps/web/dist');
  if (!fs.existsSync(path.join(distDir, '.vite/manifest.json'))) {
    console.error('No build manifest: run `npm run build` first.');
    process.exit(1);
  }
  const { routes, languages } = measureRoutes(distDir);
  const kib = (n: number) => `${(n / KIB).toFixed(1)} KiB`;
  if (process.argv.includes('--json')) console.log(JSON.stringify(routes));
  else {
    console.log(
      'Files: the entry, the layout and the page with their static imports and CSS, and the largest\n' +
        "language's parts the route needs, English's first aside (a phone downloads at most one language). Not\n" +
        'counted: what the route imports later on a choice (see --on-demand). Brotli 11 / gzip 9.\n' +
        "Transfer (the budget's figure): the files, the address's index.html, the favicon and each reply's\n" +
        `headers (at most ${REPLY_HEADER_BYTES.hashed} B a script or style, ${REPLY_HEADER_BYTES.document} B the document): what Chromium counts.`,
    );
    const names = Object.entries(languages).map(([k, b]) => `${k.replace(/^.*\//, '')} ${kib(b)}`);
    console.log(
      `Language files: ${names.join(', ')}; the largest language's parts a route needs are in its figure (column "lang").\n`,
    );
    console.log(
      'route page'.padEnd(44),
      'transfer'.padStart(11),
      'req'.padStart(4),
      'files'.padStart(11),
      'lang'.padStart(9),
      'gzip'.padStart(11),
      ' budget',
    );
    for (const r of routes) {
      const mark = heldFigure(r) > r.budget ? '  OVER' : '';
      console.log(
        r.page.replace('src/features/', '').padEnd(44),
        `${kib(r.transfer)}${r.held === 'transfer' ? '*' : ' '}`.padStart(11),
        String(r.requests).padStart(4),
        `${kib(r.brotli)}${r.held === 'files' ? '*' : ' '}`.padStart(11),
        kib(r.language).padStart(9),
        kib(r.gzip).padStart(11),
        ` ${kib(r.budget)}${mark}`,
      );
      if (process.argv.includes('--on-demand'))
        for (const d of r.onDemand)
          console.log(`    later, on a choice: ${d.key.replace(/^.*node_modules\//, '')} +${kib(d.brotli)}`);
    }
  }
  console.log('* the figure held to the budget.');
  const over = routes.filter((r) => heldFigure(r) > r.budget);
  if (over.length) {
    console.log(`${over.length} of ${routes.length} routes over the byte budget.`);
    if (process.argv.includes('--enforce')) process.exit(1);
  } else console.log(`All ${routes.length} routes within the byte budget.`);
}
