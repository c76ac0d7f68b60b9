/**
 * Each address's files, from Vite's manifest and src/app/screen-addresses.ts: the scripts and styles of
 * the address's screen modules and everything they import statically, less what index.html already
 * loads. vite.config.ts writes them to dist/screen-preloads.json before the service worker is built, so
 * the worker precaches the table; the worker and the server send them as preload links in each
 * address's index.html (@kutu/contract/screen-preloads).
 */
import type { ScreenPreloads } from '@kutu/contract/screen-preloads';
import { SCREEN_ADDRESSES } from '../src/app/screen-addresses.ts';

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
}
export type Manifest = Record<string, ManifestChunk>;

/** The files of `keys` and of their static imports, as site paths ("/assets/…"). */
function filesOf(manifest: Manifest, keys: string[]): Set<string> {
  const files = new Set<string>();
  const seen = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || seen.has(key)) return;
    seen.add(key);
    files.add(`/${chunk.file}`);
    for (const css of chunk.css ?? []) files.add(`/${css}`);
    for (const dep of chunk.imports ?? []) visit(dep);
  };
  for (const key of keys) visit(key);
  return files;
}

export function screenPreloads(
  manifest: Manifest,
  addresses: Readonly<Record<string, readonly string[]>> = SCREEN_ADDRESSES,
): ScreenPreloads {
  const entry = filesOf(
    manifest,
    Object.keys(manifest).filter((key) => manifest[key]!.isEntry),
  );
  const byAddress: ScreenPreloads = {};
  for (const [address, modules] of Object.entries(addresses)) {
    const missing = modules.filter((module) => !manifest[`src/${module}`]);
    if (missing.length) throw new Error(`${address}: ${missing.join(', ')} not in the build's manifest`);
    const files = [
      ...filesOf(
        manifest,
        modules.map((module) => `src/${module}`),
      ),
    ].filter((f) => !entry.has(f));
    byAddress[address] = {
      scripts: files.filter((f) => f.endsWith('.js')),
      styles: files.filter((f) => f.endsWith('.css')),
    };
  }
  return byAddress;
}
