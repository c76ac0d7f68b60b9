import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';

/** What `npm test` needs that npm cannot install: Debian packages. */
const needs = [
  { pkg: 'chromium', present: () => fs.existsSync('/usr/bin/chromium') },
  { pkg: 'postgresql', present: () => postgresBinDir() !== null },
  {
    pkg: 'python3-torch python3-torchvision python3-onnx',
    present: () =>
      spawnSync('/usr/bin/python3', ['-c', 'import torch, torchvision, onnx'], { stdio: 'ignore' }).status === 0,
  },
  // npm run lint:python (packages/vision's Python package).
  { pkg: 'flake8', present: () => fs.existsSync('/usr/bin/flake8') },
  // The server's voice (docs/decisions/0087): eSpeak NG reads texts, ffmpeg checks recordings and writes MP3.
  { pkg: 'espeak-ng', present: () => fs.existsSync('/usr/bin/espeak-ng') },
  { pkg: 'ffmpeg', present: () => fs.existsSync('/usr/bin/ffmpeg') },
];

export function postgresBinDir(): string | null {
  const root = '/usr/lib/postgresql';
  if (!fs.existsSync(root)) return null;
  const versions = fs
    .readdirSync(root)
    .filter((v) => fs.existsSync(`${root}/${v}/bin/initdb`))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length ? `${root}/${versions[0]}/bin` : null;
}

/** Installs missing Debian packages when running as root; otherwise stops with the exact command. */
export function ensureSystemDeps() {
  const missing = needs.filter((n) => !n.present()).map((n) => n.pkg);
  if (missing.length === 0) return;
  const command = `apt-get update && apt-get install -y ${missing.join(' ')}`;
  if (process.getuid?.() !== 0) {
    console.error(`Missing system packages. Run as root:\n  sudo sh -c '${command}'`);
    process.exit(1);
  }
  console.log(`Installing system packages: ${missing.join(' ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('sh', ['-c', `apt-get update -qq && apt-get install -y -qq ${missing.join(' ')}`], {
    stdio: 'inherit',
    env,
  });
}
