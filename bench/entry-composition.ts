/**
 * What every page's first download starts with (docs/decisions/0016, 0077). The entry chunk (index.html's
 * script: React DOM and the light modules the sign-in screen runs on) is built again with a source map into a temporary folder, and
 * each of its minified bytes is attributed to the package (or the app's source folder) it comes from.
 * Per part: the bytes it adds to the chunk, raw, and brotli's "adds": the chunk's brotli size minus that
 * of the chunk without the part. Parts compressed alone add up to more than the chunk (brotli reuses what
 * it saw in other modules), so "adds" is the figure that says what leaving a part out would save.
 * The sign-in screen's own chunks and the other files of each route's figure are counted by
 * `node bench/bundle-size.ts`.
 *
 *   npm run build && node bench/entry-composition.ts [--modules]
 *
 * `--modules`: one row per source module (brotli alone only: "adds" per module would take minutes).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { eachMapping, TraceMap } from '@jridgewell/trace-mapping';
import { build, type Manifest } from 'vite';
import { productionBuild } from '../apps/web/scripts/build.ts';

const brotli = (text: string) =>
  zlib.brotliCompressSync(Buffer.from(text), { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }).length;

/** A package's name, or the app's source folder; with `modules`, the module's own path. */
function partOf(source: string | null, modules: boolean): string {
  if (!source) return '(no source: bundler runtime, helpers)';
  const inPackage = /node_modules\/((?:@[^/]+\/)?[^/]+)(\/.*)?$/.exec(source);
  if (inPackage) return modules ? `${inPackage[1]}${inPackage[2] ?? ''}` : inPackage[1]!;
  const inRepository = /(?:^|\/)((?:apps|packages)\/.*)$/.exec(source)?.[1] ?? source;
  if (modules) return inRepository;
  // The English strings apart from the code of src/lib: locales/en.json?part=first.
  const inWeb = /^apps\/web\/src\/((?:lib\/locales)|[^/]+)/.exec(inRepository);
  return inWeb ? `app: src/${inWeb[1]}` : inRepository;
}

/** The entry chunk's text, each character's part, from its source map. */
function attribute(code: string, map: TraceMap, modules: boolean): string[] {
  const lineStarts = [0];
  for (let i = 0; i < code.length; i++) if (code[i] === '\n') lineStarts.push(i + 1);
  const segments: { at: number; source: string | null }[] = [];
  eachMapping(map, (m) => {
    segments.push({ at: lineStarts[m.generatedLine - 1]! + m.generatedColumn, source: m.source });
  });
  segments.sort((a, b) => a.at - b.at);
  const owner = new Array<string>(code.length).fill(partOf(null, modules));
  segments.forEach((segment, i) => {
    const end = segments[i + 1]?.at ?? code.length;
    owner.fill(partOf(segment.source, modules), segment.at, end);
  });
  return owner;
}

if (import.meta.main) {
  const modules = process.argv.includes('--modules');
  if (!fs.existsSync(path.resolve(import.meta.dirname, '../apps/web/dist/.vite/manifest.json'))) {
    // The service worker's precache list (vite.config.ts) reads the main build's manifest.
    console.error('No build manifest: run `npm run build` first.');
    process.exit(1);
  }
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kutu-entry-'));
  try {
    await build({ ...productionBuild(process.env), logLevel: 'warn', build: { outDir, sourcemap: true } });
    const manifest: Manifest = JSON.parse(fs.readFileSync(path.join(outDir, '.vite/manifest.json'), 'utf8'));
    const file = manifest['index.html']!.file;
    const code = fs.readFileSync(path.join(outDir, file), 'utf8');
    const map = new TraceMap(JSON.parse(fs.readFileSync(path.join(outDir, `${file}.map`), 'utf8')));
    const owner = attribute(code, map, modules);
    const total = brotli(code);
    const characters = code.split(''); // UTF-16 units, as the source map's columns count
    const parts = new Map<string, string[]>();
    owner.forEach((part, i) => {
      const chars = parts.get(part) ?? [];
      chars.push(characters[i]!);
      parts.set(part, chars);
    });
    const rows = [...parts].map(([part, chars]) => {
      const alone = brotli(chars.join(''));
      const adds = modules ? null : total - brotli(characters.filter((_, i) => owner[i] !== part).join(''));
      return { part, raw: chars.length, alone, adds };
    });
    rows.sort((a, b) => (b.adds ?? b.alone) - (a.adds ?? a.alone));
    const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
    console.log(`Entry chunk ${file}: ${kib(code.length)} raw, ${kib(total)} brotli 11.\n`);
    console.log('raw'.padStart(10), 'brotli alone'.padStart(13), modules ? '' : 'adds'.padStart(10), ' part');
    for (const r of rows)
      console.log(
        kib(r.raw).padStart(10),
        kib(r.alone).padStart(13),
        r.adds === null ? '' : kib(r.adds).padStart(10),
        ` ${r.part}`,
      );
  } finally {
    fs.rmSync(outDir, { recursive: true, force: true });
  }
}
