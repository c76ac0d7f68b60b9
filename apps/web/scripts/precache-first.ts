/**
 * What the service worker downloads on the first visit (docs/decisions/0037): the entry and the screens a
 * farmer opens first, with everything they import, statically or on a tap (dialogs, toasts, the offline
 * diagnosis engine, the languages), so those screens work with no signal after one visit. Every other
 * screen's files are cached when first opened, or all at once on Wi-Fi or when the farmer asks
 * (src/sw.ts). vite.config.ts filters the worker's precache list with it.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Manifest } from 'vite';
import { ADDRESS_MODULES } from '../src/app/screen-addresses.ts';
import type { AppFiles } from '../src/lib/app-files.ts';

import { APP_FILES_FILE } from '../src/lib/app-files.ts';

export { APP_FILES_FILE };

/**
 * The addresses a browser may open first, signed out: signing in or up, and the terms the sign-up links
 * to. Their files (with the shell: the entry, the app) are what the worker precaches when it installs,
 * which happens on the first visit (docs/decisions/0092). The screens of a code (activation, email,
 * forgotten password) are not: they work with a signal only, and are kept once opened; their forms
 * brought the contract's schemas (38 KiB) into the precache.
 */
export const SIGNED_OUT_ADDRESSES: readonly string[] = ['/auth', '/auth/signup', '/terms'];

/**
 * The addresses a farmer opens first once signed in: the dashboard, diagnosing a photo (online or
 * offline), the history of diagnoses, the fields and their walks, and the profile (where offline use and
 * the data used are shown). The account shell asks the worker for them once it has settled (the `first`
 * set). Addresses that lead elsewhere (`/`, `/account/settings`) need nothing of their own.
 */
export const ACCOUNT_FIRST_ADDRESSES: readonly string[] = [
  '/account',
  '/account/profile',
  '/account/addresses/image-analysis',
  '/account/addresses/analysis-history',
  // A farmer's fields and the scouting walk, which work with no signal (docs/decisions/0078).
  '/account/fields',
  '/account/fields/:id',
  '/account/fields/:id/walk',
];

export const FIRST_ADDRESSES: readonly string[] = [...SIGNED_OUT_ADDRESSES, ...ACCOUNT_FIRST_ADDRESSES];

/**
 * Modules the first screens import on demand that must work offline all the same: the contract's schemas
 * the forms load on the first touch (lib/contract-form.ts), which the walk's and the profile's forms check
 * with no signal. In the `first` set, not the precache: a form signed out sends nothing offline.
 */
const FIRST_ON_DEMAND: readonly string[] = ['src/lib/lazy-schemas.ts'];

/**
 * The files (as the manifest names them: "assets/…") of the entry and of the first addresses' screens
 * with what they import statically; with `dynamic`, also what they import on demand (dialogs, toasts, the
 * offline engine, the other languages), but never the screen modules of another address (the router
 * imports every screen on demand: those are the part left for later).
 */
export function firstFiles(
  manifest: Manifest,
  { dynamic = false, onDemand = true }: { dynamic?: boolean; onDemand?: boolean } = {},
  addresses: Readonly<Record<string, readonly string[]>> = ADDRESS_MODULES,
  first: readonly string[] = FIRST_ADDRESSES,
): Set<string> {
  const unknown = first.filter((address) => !addresses[address]);
  if (unknown.length) throw new Error(`precache-first: ${unknown.join(', ')} not in ADDRESS_MODULES`);
  const firstModules = new Set(first.flatMap((address) => addresses[address]!.map((m) => `src/${m}`)));
  const later = new Set(
    Object.values(addresses)
      .flat()
      .map((m) => `src/${m}`)
      .filter((key) => !firstModules.has(key)),
  );
  const files = new Set<string>();
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key) || later.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) return;
    files.add(chunk.file);
    for (const css of chunk.css ?? []) files.add(css);
    for (const asset of chunk.assets ?? []) files.add(asset);
    for (const dep of chunk.imports ?? []) visit(dep);
    if (dynamic) for (const dep of chunk.dynamicImports ?? []) visit(dep);
  };
  for (const key of Object.keys(manifest).filter((k) => manifest[k]!.isEntry)) visit(key);
  for (const key of firstModules) visit(key);
  for (const key of onDemand ? FIRST_ON_DEMAND : []) {
    if (!manifest[key]) throw new Error(`precache-first: ${key} is not in the build`);
    visit(key);
  }
  return files;
}

/** The runtime onnxruntime needs is downloaded on purpose with the model (decision 0017), never here. */
const onPurpose = (file: string) => file.endsWith('.wasm') || file.endsWith('.onnx');

/**
 * Which of the worker's precache entries (workbox's, URLs relative to dist) it downloads at install, on a
 * first visit (docs/decisions/0092): index.html, the screens' preload table, the web manifest and the
 * favicon, and the signed-out screens' files with their static imports (the shell among them). Not the
 * release's file list (app-files.json: the worker fetches it when it downloads a set, online by then), nor
 * the home-screen icons (the browser fetches one when it installs the app); the account's first screens
 * come as the `first` set once signed in, every other asset when first used.
 */
export function precacheFilter(manifest: Manifest): (entry: { url: string }) => boolean {
  const first = firstFiles(manifest, { onDemand: false }, ADDRESS_MODULES, SIGNED_OUT_ADDRESSES);
  return ({ url }) =>
    url.startsWith('assets/') ? first.has(url) : !url.startsWith('icons/') && url !== APP_FILES_FILE;
}

/**
 * dist/app-files.json: every file of the release under /assets/ with its size, those of the first screens
 * (the account shell asks for them once signed in) and those the offline screens need, which the worker
 * downloads when offline use is set up (src/sw.ts).
 */
export function appFiles(manifest: Manifest, dist: string): AppFiles {
  const assets = fs
    .readdirSync(path.join(dist, 'assets'))
    .filter((f) => !f.endsWith('.br') && !f.endsWith('.gz') && !onPurpose(f))
    .sort();
  const paths = (files: Set<string>) =>
    [...files]
      .filter((f) => !onPurpose(f))
      .map((f) => `/${f}`)
      .sort();
  return {
    first: paths(firstFiles(manifest)),
    offline: paths(firstFiles(manifest, { dynamic: true })),
    all: assets.map((f) => ({ url: `/assets/${f}`, bytes: fs.statSync(path.join(dist, 'assets', f)).size })),
  };
}
