/**
 * Each address's files, from Vite's manifest and src/app/screen-addresses.ts: the scripts and styles of
 * the address's modules (the full app, but at the sign-in screen, then its screens) and everything they
 * import statically, less what index.html already loads. vite.config.ts writes them to
 * dist/screen-preloads.json before the service worker is built, so the worker precaches the table; the
 * worker and the server send them as preload links in each address's index.html
 * (@kutu/contract/screen-preloads).
 */
import type { ScreenPreloads } from '@kutu/contract/screen-preloads';
import type { Manifest } from 'vite';
import { ADDRESS_MODULES } from '../src/app/screen-addresses.ts';

/**
 * The files (JS and CSS, as the manifest names them: "assets/…") of the chunks `keys` and of everything
 * they import statically, skipping the chunks in `skip`; `onDynamicImport` sees each dynamic import met on
 * the way. bench/bundle-size.ts counts a route's bytes with it.
 */
export function staticFiles(
  manifest: Manifest,
  keys: string[],
  skip: ReadonlySet<string> = new Set(),
  onDynamicImport?: (key: string) => void,
): Set<string> {
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
    if (onDynamicImport) for (const dep of chunk.dynamicImports ?? []) onDynamicImport(dep);
  };
  for (const key of keys) visit(key);
  return files;
}

export function screenPreloads(
  manifest: Manifest,
  addresses: Readonly<Record<string, readonly string[]>> = ADDRESS_MODULES,
): ScreenPreloads {
  const entry = staticFiles(manifest, ['index.html']);
  const byAddress: ScreenPreloads = {};
  for (const [address, modules] of Object.entries(addresses)) {
    const missing = modules.filter((module) => !manifest[`src/${module}`]);
    if (missing.length) throw new Error(`${address}: ${missing.join(', ')} not in the build's manifest`);
    const keys = modules.map((module) => `src/${module}`);
    const files = [...staticFiles(manifest, keys)].filter((f) => !entry.has(f)).map((f) => `/${f}`);
    byAddress[address] = {
      scripts: files.filter((f) => f.endsWith('.js')),
      styles: files.filter((f) => f.endsWith('.css')),
    };
  }
  return byAddress;
}
