/**
 * The phone's voice (docs/decisions/0087): eSpeak NG compiled to WebAssembly (@echogarden/espeak-ng-emscripten,
 * GPL-3.0), whose data package holds every language's files (24 MB). The phone needs English's and
 * Kiswahili's: this writes those files, byte for byte as the package has them, into one file of their own
 * with an index, so the engine can be handed a package in which the other languages' files are empty
 * (voice.worker.ts). The engine's own script is served as the package ships it.
 *
 * Layout: 4 bytes (little-endian length of the index), the index as JSON
 * `{ packageSize, files: [{ name, start, end }] }` (where each file sits in the package), then the files in
 * the index's order.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { SYNTH_LANGUAGES, type SynthLanguage } from '@kutu/contract/voice-paths';

/** Each synthetic voice's language file in eSpeak NG's data (one per language of SYNTH_LANGUAGES). */
const ESPEAK_VOICES: Record<SynthLanguage, string> = { en: 'lang/gmw/en', sw: 'lang/bnt/sw' };

/**
 * eSpeak NG's data files that the languages of SYNTH_LANGUAGES read (English and Kiswahili today):
 * phonemes, intonation, each language's rules and its voice.
 */
export const VOICE_FILES: readonly string[] = [
  'phontab',
  'phonindex',
  'phondata',
  'intonations',
  ...SYNTH_LANGUAGES.map((l) => `${l}_dict`),
  ...SYNTH_LANGUAGES.map((l) => ESPEAK_VOICES[l]),
];

const DATA_ROOT = '/usr/share/espeak-ng-data/';
export const VOICE_DATA_FILE = path.join(import.meta.dirname, '../generated/voice/espeak-ng-en-sw.data');

export interface VoiceDataIndex {
  packageSize: number;
  files: { name: string; start: number; end: number }[];
}

function packageDir(): string {
  const require = createRequire(import.meta.url);
  return path.dirname(require.resolve('@echogarden/espeak-ng-emscripten/package.json'));
}

export function buildVoiceData(dir = packageDir()): { bytes: Buffer; index: VoiceDataIndex } {
  const script = fs.readFileSync(path.join(dir, 'espeak-ng.js'), 'utf8');
  const all = [...script.matchAll(/\{filename:"([^"]+)",start:(\d+),end:(\d+)\}/g)].map((m) => ({
    name: m[1]!.replace(DATA_ROOT, ''),
    start: Number(m[2]),
    end: Number(m[3]),
  }));
  const size = /remote_package_size:(\d+)/.exec(script);
  const files = VOICE_FILES.map((name) => all.find((f) => f.name === name));
  const missing = VOICE_FILES.filter((_, i) => !files[i]);
  if (!size || missing.length) {
    throw new Error(`voice-data: the eSpeak NG package no longer lists ${missing.join(', ') || 'its size'}`);
  }
  const index: VoiceDataIndex = { packageSize: Number(size[1]), files: files as VoiceDataIndex['files'] };
  const data = fs.readFileSync(path.join(dir, 'espeak-ng.data'));
  const head = Buffer.from(JSON.stringify(index));
  const length = Buffer.alloc(4);
  length.writeUInt32LE(head.length);
  return { bytes: Buffer.concat([length, head, ...index.files.map((f) => data.subarray(f.start, f.end))]), index };
}

/** Writes the file where the app imports it from, when it is missing or older than the package. */
export function writeVoiceData(): void {
  const source = path.join(packageDir(), 'espeak-ng.data');
  if (fs.existsSync(VOICE_DATA_FILE) && fs.statSync(VOICE_DATA_FILE).mtimeMs >= fs.statSync(source).mtimeMs) return;
  fs.mkdirSync(path.dirname(VOICE_DATA_FILE), { recursive: true });
  const partial = `${VOICE_DATA_FILE}.${process.pid}`;
  fs.writeFileSync(partial, buildVoiceData().bytes);
  fs.renameSync(partial, VOICE_DATA_FILE);
}

if (import.meta.main) {
  writeVoiceData();
  console.log(`${VOICE_DATA_FILE}: ${fs.statSync(VOICE_DATA_FILE).size} bytes`);
}

/**
 * eSpeak NG is GPL-3.0 (docs/decisions/0087): its licence and where its source is go out with it, at
 * /licenses/espeak-ng/ (the build writes them; vite.config.ts).
 */
export function voiceLicenceFiles(): { fileName: string; source: string }[] {
  const dir = packageDir();
  const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name: string; version: string };
  const source = `The voice that reads Kutu's answers aloud on the phone is eSpeak NG, compiled to WebAssembly.

Files: /assets/espeak-ng-<hash>.js is ${pkg.name} ${pkg.version} (npm) as published, unmodified.
/assets/espeak-ng-en-sw-<hash>.data holds, byte for byte, the files ${VOICE_FILES.join(', ')} of that
package's espeak-ng.data, with an index of where each one sits in it (apps/web/scripts/voice-data.ts in
Kutu's source). The engine runs in its own worker; Kutu's code hands it text and takes back sound.

Licence: GNU General Public License version 3 (COPYING.txt, beside this file). eSpeak NG is by Jonathan
Duddington, Reece H. Dunn and the eSpeak NG contributors; this build by the Echogarden project.

Source: the corresponding source of ${pkg.name} ${pkg.version} is the Echogarden project's eSpeak NG
fork (https://github.com/echogarden-project/espeak-ng, branch "fork", built with its
build-emscripten.sh) and ${pkg.name}'s repository (https://github.com/echogarden-project/espeak-ng-emscripten).
Whoever runs this Kutu keeps a copy of that source and gives it to anyone who asks, for as long as
they serve these files.
`;
  return [
    { fileName: 'licenses/espeak-ng/COPYING.txt', source: fs.readFileSync(path.join(dir, 'COPYING'), 'utf8') },
    { fileName: 'licenses/espeak-ng/SOURCE.txt', source },
  ];
}
