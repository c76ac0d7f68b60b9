import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';
import type { Manifest, Plugin } from 'vite';
import { configDefaults, defineConfig } from 'vitest/config';
import { shortLinkTargets } from '@kutu/contract/paths';
import { SCREEN_PRELOADS_FILE } from '@kutu/contract/screen-preloads';
import { screenPreloads } from './scripts/screen-preloads.ts';
import { appChunk } from './scripts/app-chunk.ts';
import { APP_FILES_FILE, appFiles, precacheFilter } from './scripts/precache-first.ts';
import { phoneMetadata } from './src/components/PhoneInput/phone-metadata.ts';
import { LOCALE_PARTS, type LocalePart, localePart } from './src/lib/locale-parts.ts';
import { VOICE_DATA_FILE, voiceLicenceFiles, writeVoiceData } from './scripts/voice-data.ts';

/** `locales/xx.json?part=first|account|staff|…`: a part of a locale file (lib/locale-parts.ts says which). */
function localeParts(): Plugin {
  return {
    name: 'kutu-locale-parts',
    enforce: 'pre',
    load(id) {
      const match = /^(.*\/locales\/[\w-]+\.json)\?part=(\w+)$/.exec(id);
      if (!match || !LOCALE_PARTS.includes(match[2] as LocalePart)) return null;
      const file = match[1]!;
      this.addWatchFile(file);
      const strings = localePart(JSON.parse(fs.readFileSync(file, 'utf8')), match[2] as LocalePart);
      // JavaScript, not JSON: Vite's JSON plugin takes no file with a query it does not know.
      return `export default ${JSON.stringify(strings)};`;
    },
  };
}

/** eSpeak NG's licence (GPL-3.0) and where its source is, at /licenses/espeak-ng/ (scripts/voice-data.ts). */
function voiceLicence(): Plugin {
  return {
    name: 'kutu-voice-licence',
    apply: 'build',
    generateBundle() {
      for (const file of voiceLicenceFiles()) this.emitFile({ type: 'asset', ...file });
    },
  };
}

/** `virtual:phone-metadata`: libphonenumber's metadata and examples for the offered countries only. */
function phoneMetadataModule(): Plugin {
  const id = 'virtual:phone-metadata';
  const require = createRequire(import.meta.url);
  return {
    name: 'kutu-phone-metadata',
    resolveId: (source) => (source === id ? `\0${id}` : null),
    load(loaded) {
      if (loaded !== `\0${id}`) return null;
      const { metadata, examples } = phoneMetadata(
        require('libphonenumber-js/metadata.min.json'),
        require('libphonenumber-js/examples.mobile.json'),
      );
      return `export const metadata = ${JSON.stringify(metadata)};\nexport const examples = ${JSON.stringify(examples)};`;
    },
  };
}

/**
 * Mantine's `useId` module resolved to src/lib/mantine-use-id.ts (that file says why). The build stops if
 * a Mantine release moves the module, rather than shipping its useId unnoticed.
 */
function mantineUseId(): Plugin {
  const replacement = path.join(import.meta.dirname, 'src/lib/mantine-use-id.ts');
  let replaced = false;
  return {
    name: 'kutu-mantine-use-id',
    apply: 'build',
    enforce: 'pre',
    resolveId(source, importer) {
      if (!importer?.includes('/@mantine/hooks/') || !source.endsWith('/use-id/use-id.mjs')) return null;
      replaced = true;
      return replacement;
    },
    buildEnd(error) {
      if (!error && !replaced) this.error("@mantine/hooks' use-id module was not found: update mantineUseId()");
    },
  };
}

/**
 * Mantine modules' imports that would bring a whole shared chunk for one small thing, resolved to a
 * module of ours that gives that thing (each file says why). The build stops if an import is no longer
 * met, so a Mantine release that changes them is noticed rather than the entry kept for nothing.
 */
const MANTINE_IMPORTS_REDIRECTED = [
  {
    importer: '/@mantine/core/esm/components/ScrollArea/',
    source: '@floating-ui/react',
    to: 'scroll-area-merge-refs.ts',
  },
  {
    importer: '/@mantine/core/esm/components/AppShell/',
    source: 'react-remove-scroll',
    to: 'app-shell-remove-scroll.ts',
  },
];
function mantineImportsRedirected(): Plugin {
  const met = new Set<string>();
  return {
    name: 'kutu-mantine-imports-redirected',
    apply: 'build',
    enforce: 'pre',
    resolveId(source, importer) {
      const entry = MANTINE_IMPORTS_REDIRECTED.find((e) => e.source === source && importer?.includes(e.importer));
      if (!entry) return null;
      met.add(entry.to);
      return path.join(import.meta.dirname, 'src/lib', entry.to);
    },
    buildEnd(error) {
      const unmet = MANTINE_IMPORTS_REDIRECTED.filter((e) => !met.has(e.to));
      if (!error && unmet.length) this.error(`No longer imported by Mantine: ${unmet.map((e) => e.source).join(', ')}`);
    },
  };
}

/**
 * Each Mantine component's styles with the component: `@mantine/core/styles/<Name>.css` imported by its
 * class-name module (`<Name>.module.mjs`), so they come in the chunk, and the screen, that uses it. The
 * first screens' styles load with the app at start (src/styles/first-screens.ts) and are left there.
 */
function mantineStylesWithComponents(): Plugin {
  const styles = path.join(path.dirname(createRequire(import.meta.url).resolve('@mantine/core/styles.css')), 'styles');
  const first = fs.readFileSync(path.join(import.meta.dirname, 'src/styles/first-screens.ts'), 'utf8');
  const atStart = new Set([...first.matchAll(/@mantine\/core\/styles\/(\w+)\.css/g)].map((m) => m[1]));
  let serve = false;
  return {
    name: 'kutu-mantine-styles-with-components',
    configResolved(config) {
      serve = config.command === 'serve';
    },
    transform(code, id) {
      // The dev server hands Mantine over pre-bundled, past this hook: there the first screens bring all its styles.
      if (serve && id.endsWith('/src/styles/first-screens.ts')) return `${code}\nimport '@mantine/core/styles.css';`;
      const name = /\/@mantine\/core\/esm\/.*\/(\w+)\.module\.mjs$/.exec(id)?.[1];
      if (!name || atStart.has(name) || !fs.existsSync(path.join(styles, `${name}.css`))) return null;
      return { code: `${code}\nimport ${JSON.stringify(path.join(styles, `${name}.css`))};`, map: null };
    },
  };
}

/**
 * `dist/screen-preloads.json`: each address's screen files (scripts/screen-preloads.ts), written once the
 * bundle is on disk and before vite-plugin-pwa builds the service worker (its closeBundle), which
 * precaches it.
 */
function screenPreloadsFile(): Plugin {
  return {
    name: 'kutu-screen-preloads',
    apply: 'build',
    writeBundle(options) {
      const dist = options.dir!;
      const manifest = JSON.parse(fs.readFileSync(path.join(dist, '.vite', 'manifest.json'), 'utf8')) as Manifest;
      fs.writeFileSync(path.join(dist, SCREEN_PRELOADS_FILE), JSON.stringify(screenPreloads(manifest)));
      fs.writeFileSync(path.join(dist, APP_FILES_FILE), JSON.stringify(appFiles(manifest, dist)));
    },
  };
}

/**
 * index.html without vite-plugin-pwa's `<link rel="manifest">`: app/service-worker.ts links the manifest
 * once the first screen has settled. The build stops if the plugin's link is not found (a release that
 * writes it otherwise would bring the manifest back into every first load unnoticed).
 */
function webManifestLinkedLater(): Plugin {
  const link = /<link rel="manifest" href="\/manifest\.webmanifest"[^>]*>/;
  return {
    name: 'kutu-web-manifest-later',
    apply: 'build',
    enforce: 'post',
    transformIndexHtml: {
      order: 'post',
      handler(html) {
        if (!link.test(html)) throw new Error("vite-plugin-pwa's manifest link was not found in index.html");
        return html.replace(link, '');
      },
    },
  };
}

// The runtime's real size: the server sends it compressed, so the download progress scales the bytes
// the browser hands over (decoded) to the bytes on the wire.
const ortWasmBytes = fs.statSync(
  fileURLToPath(import.meta.resolve('onnxruntime-web/ort-wasm-simd-threaded.wasm')),
).size;

// The phone's voice: eSpeak NG's English and Kiswahili files out of its 24 MB data package
// (scripts/voice-data.ts), written before anything imports them (lib/voice/engine.ts, `?url`).
writeVoiceData();
const voiceDataBytes = fs.statSync(VOICE_DATA_FILE).size;

/**
 * Web test files that need modules of their own: they mock or reset modules (`vi.mock`, `vi.doMock`,
 * `vi.resetModules`), or switch the language, whose catalogue parts the i18n module loads once and
 * keeps (after another file loaded a language's first part only, a switch to it may show English). They
 * are found by their text, so a new such file cannot be forgotten; the other web files share their
 * worker's modules.
 */
const NEEDS_OWN_MODULES = /vi\.(mock|doMock|resetModules)\(|changeLanguage\(/;
export const isolatedWebTests = fs
  .readdirSync(path.join(import.meta.dirname, 'src'), { recursive: true, encoding: 'utf8' })
  .filter((file) => /\.test\.tsx?$/.test(file))
  .map((file) => `src/${file.split(path.sep).join('/')}`)
  .filter((file) => NEEDS_OWN_MODULES.test(fs.readFileSync(path.join(import.meta.dirname, file), 'utf8')))
  .sort();

export default defineConfig({
  root: import.meta.dirname,
  define: { __ORT_WASM_BYTES__: JSON.stringify(ortWasmBytes), __VOICE_DATA_BYTES__: JSON.stringify(voiceDataBytes) },
  plugins: [
    react(),
    mantineUseId(),
    mantineImportsRedirected(),
    mantineStylesWithComponents(),
    localeParts(),
    voiceLicence(),
    phoneMetadataModule(),
    screenPreloadsFile(),
    // Installable app and offline shell (docs/decisions/0016 and 0037): the worker (src/sw.ts)
    // precaches index.html and the signed-out screens (scripts/precache-first.ts), the account shell asks
    // for a farmer's first screens once signed in; every other
    // file is cached when first fetched, or all at once on Wi-Fi, when offline use is set up, or on the
    // farmer's request. Never the model or onnxruntime's wasm (downloaded on purpose, by page code).
    VitePWA({
      registerType: 'autoUpdate',
      strategies: 'injectManifest',
      srcDir: 'src',
      filename: 'sw.ts',
      // Registered by the app once the first screen has settled (app/service-worker.ts), not at load.
      injectRegister: false,
      // The home-screen icons (42 KB) are not precached: the browser fetches the one it needs when it
      // installs the app (decision 0092).
      includeManifestIcons: false,
      manifest: {
        name: 'Kutu — Detect Early · Act Fast · Grow Smart',
        short_name: 'Kutu',
        description: 'Photograph a maize or bean leaf and learn whether it has rust.',
        start_url: '/account',
        scope: '/',
        display: 'standalone',
        orientation: 'portrait',
        background_color: '#ffffff',
        theme_color: '#2b8a3e',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/icons/maskable-192.png', sizes: '192x192', type: 'image/png', purpose: 'maskable' },
          { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      injectManifest: {
        globPatterns: ['**/*.{js,css,html,svg,png,json,topojson}'],
        globIgnores: ['**/*.onnx', '**/*.wasm', '**/ort*', '**/models/**', '.vite/**'],
        // Of those, only the shell and the first screens: the rest costs a 2G farmer data when first used.
        manifestTransforms: [
          async (entries) => {
            const dist = path.join(import.meta.dirname, 'dist');
            const manifest = JSON.parse(fs.readFileSync(path.join(dist, '.vite', 'manifest.json'), 'utf8')) as Manifest;
            return { manifest: entries.filter(precacheFilter(manifest)), warnings: [] };
          },
        ],
      },
    }),
    webManifestLinkedLater(),
  ],
  // The API and the SMS short links (a server redirect) go to the server on its default port.
  server: {
    proxy: Object.fromEntries(
      ['/api', ...shortLinkTargets.map(({ prefix }) => `^${prefix}\\d+$`)].map((path) => [
        path,
        'http://localhost:8080',
      ]),
    ),
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    manifest: true,
    // Every browser the app supports knows modulepreload; the polyfill still ran at each start.
    modulePreload: { polyfill: false },
    chunkSizeWarningLimit: 1500,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: 'start', tags: ['$initial'] },
            {
              name: appChunk(path.join(import.meta.dirname, 'src')),
              debugName: 'app',
              includeDependenciesRecursively: false,
            },
          ],
        },
      },
    },
  },
  test: {
    name: 'web',
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'jsdom',
    setupFiles: ['src/test/setup.ts'],
    css: false,
    // Typing into a form with user-event takes a few seconds on a 2-core machine running the server
    // tests beside it: vitest's 5 s default failed tests that pass alone.
    testTimeout: 20_000,
    // Worker threads rather than processes (a thread starts cheaper), and the files of a worker share its
    // modules and its jsdom rather than loading React, Mantine and the app again for each file: the
    // whole web suite (both projects) in 72 to 84 s rather than 228 s, back to back on a shared 2-core
    // machine. setup.ts resets the page, storage, notices and language after every test. A file that
    // mocks modules, resets them or switches the language is found by its text (`isolatedWebTests`) and runs in
    // the `web-isolated` project (vitest.config.ts), one file per fresh worker as before.
    pool: 'threads',
    isolate: false,
    // The root's maxWorkers does not reach a project with its own config file: without this, vitest's
    // default on 2 cores (one worker) also made the web files wait, one by one, for every other project.
    maxWorkers: 2,
    exclude: [...configDefaults.exclude, ...isolatedWebTests],
  },
});
