/**
 * Spoken answers' sizes and speed (docs/decisions/0087), side by side in one run:
 *
 * 1. The phone's voice: its two files as the built app serves them (raw, brotli, gzip) and what a first
 *    Listen moves over the network; the Listen button's own cost to a screen is in bench/bundle-size.ts.
 * 2. A recording's size: speech read for a clip, prepared as an uploaded clip is (MP3, 32 kbit/s).
 * 3. Time to first sound on a mid-range phone: Chromium at a 4x slower CPU on 1.6 Mbit/s with 150 ms of
 *    latency (Lighthouse's mobile profile), from the tap on Listen to the first sound Web Audio starts:
 *    the first Listen (the voice downloads and compiles), then later ones in a fresh page (the service
 *    worker's copy), in English and Kiswahili.
 * 4. The server's rendering cost per answer: the voice call's result step (result sentence, advice, the
 *    key prompt, goodbye) through the real callback, with nothing rendered yet and again from storage;
 *    and each sentence's eSpeak NG + ffmpeg wall and CPU time (child processes' CPU, /proc).
 *
 * Exits 1 when something it measures did not happen (no file, no sound, no audio in the call).
 *
 *   npm run build && node bench/voice.ts [--runs 3]
 */
import fs from 'node:fs';
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { adviceVoiceText, type AdviceList, analysisApi } from '@kutu/contract';
import { createSpeech } from '../apps/server/src/adapters/speech.ts';
import { t as text } from '../apps/server/src/i18n/i18n.ts';
import { createTestApp } from '../apps/server/test/support/app.ts';
import { fixture, multipart } from '../apps/server/test/support/photos.ts';
import { createUser } from '../apps/server/test/support/users.ts';
import { placeCall } from '../apps/server/test/support/voice-gateway.ts';
import { startBuiltApp, webDist } from './built-app.ts';

const RUNS = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 3;
const PHONE = {
  cpu: 4,
  network: { offline: false, latency: 150, downloadThroughput: 1_600_000 / 8, uploadThroughput: 750_000 / 8 },
};
const KEY = 'bench-voice-callback-secret';
const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
let failed = false;
const fail = (why: string) => {
  console.error(`FAILED: ${why}`);
  failed = true;
};

/** CPU seconds of this process's finished children (utime + stime of reaped children, /proc/self/stat). */
function childCpu(): number {
  const fields = fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  // Fields 16 and 17 (cutime, cstime), counted from field 3 after the command's closing parenthesis; 100 ticks a second.
  return (Number(fields[13]) + Number(fields[14])) / 100;
}

function voiceFiles() {
  const assets = path.join(webDist, 'assets');
  const files = fs.readdirSync(assets).filter((f) => /^espeak-ng-[\w-]+\.(js|data)$/.test(f));
  if (files.length !== 2) fail(`expected the engine and its data in ${assets}, found ${files.join(', ') || 'none'}`);
  console.log("1. The phone's voice (downloaded on the first Listen, kept by the service worker)");
  let raw = 0;
  let br = 0;
  let gz = 0;
  for (const f of files) {
    const size = (ext: string) => fs.statSync(path.join(assets, f + ext)).size;
    raw += size('');
    br += size('.br');
    gz += size('.gz');
    console.log(
      `   ${f.padEnd(36)} ${kib(size('')).padStart(11)} raw ${kib(size('.br')).padStart(11)} brotli ${kib(size('.gz')).padStart(11)} gzip`,
    );
  }
  console.log(
    `   ${'together'.padEnd(36)} ${kib(raw).padStart(11)} raw ${kib(br).padStart(11)} brotli ${kib(gz).padStart(11)} gzip`,
  );
  console.log(
    '   (the package ships 24,014,553 bytes of data for every language; English and Kiswahili read 874,069 of them)',
  );
  return br;
}

async function clipSize() {
  const speech = createSpeech();
  const words = text('en', 'voice.call.after').repeat(4);
  const spoken = await speech.synthesize(words, 'en');
  const clip = await speech.prepare(spoken.mp3, 'mp3');
  const perSecond = clip.mp3.length / (clip.durationMs / 1000);
  console.log('\n2. A recording as Kutu keeps it (MP3, mono, 22.05 kHz, 32 kbit/s)');
  console.log(
    `   ${(clip.durationMs / 1000).toFixed(1)} s of speech: ${kib(clip.mp3.length)} (${(perSecond / 1024).toFixed(2)} KiB a second; 20 s of advice about ${kib(perSecond * 20)})`,
  );
  if (clip.mp3.length === 0 || clip.rms < 0.01) fail('the clip holds no sound');
}

/** Bytes the server has written to every connection since this was called (headers and encoded bodies). */
function bytesSent(server: Server): () => number {
  const open = new Set<Socket>();
  let closed = 0;
  server.on('connection', (socket: Socket) => {
    open.add(socket);
    socket.on('close', () => {
      closed += socket.bytesWritten;
      open.delete(socket);
    });
  });
  return () => closed + [...open].reduce((n, s) => n + s.bytesWritten, 0);
}

/** The page notes the tap and the first sound Web Audio starts. */
const SOUND_PROBE = () => {
  const w = window as unknown as { tapAt?: number; soundAt?: number };
  document.addEventListener('click', () => (w.tapAt = performance.now()), true);
  const start = AudioBufferSourceNode.prototype.start;
  AudioBufferSourceNode.prototype.start = function (...args: Parameters<typeof start>) {
    w.soundAt ??= performance.now();
    return start.apply(this, args);
  };
};

async function firstSound(page: Page, button: string): Promise<number> {
  await page.getByRole('button', { name: button }).first().click();
  await page.waitForFunction(() => (window as unknown as { soundAt?: number }).soundAt !== undefined, null, {
    timeout: 120_000,
  });
  return page.evaluate(() => {
    const w = window as unknown as { tapAt: number; soundAt: number };
    return w.soundAt - w.tapAt;
  });
}

async function timeToFirstSound() {
  const { t, base, farmer, tokens } = await startBuiltApp();
  const sent = bytesSent(t.app.server);
  const form = multipart([{ field: 'image', filename: 'leaf.jpg', data: fixture('maize-common-rust.jpg') }], {
    crop: 'maize',
  });
  const analysed = await t.app.inject({
    method: 'POST',
    url: analysisApi.detect,
    headers: { ...farmer.headers, ...form.headers },
    payload: form.payload,
  });
  const id = (analysed.json() as { id: number }).id;
  const url = `${base}/account/addresses/analysis-history?analysis=${id}`;
  const cold: number[] = [];
  const warm: { en: number[]; sw: number[] } = { en: [], sw: [] };
  let firstBytes = 0;
  for (let run = 0; run < RUNS; run++) {
    const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'kutu-bench-voice-'));
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--autoplay-policy=no-user-gesture-required'],
      viewport: { width: 390, height: 844 },
    });
    await context.addInitScript(SOUND_PROBE);
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(`${base}/auth`);
    await page.evaluate(
      ([a, r, u]) => {
        localStorage.setItem('accessToken', a);
        localStorage.setItem('refreshToken', r);
        localStorage.setItem('user', JSON.stringify(u));
        localStorage.setItem('language', 'en');
      },
      [tokens.access, tokens.refresh, tokens.user] as const,
    );
    await page.goto(url);
    await page.getByTestId('result-heading').first().waitFor();
    await page.waitForFunction(
      async () => (await navigator.serviceWorker.ready) && navigator.serviceWorker.controller !== null,
    );
    const phone = async () => {
      const cdp = await context.newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: PHONE.cpu });
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', PHONE.network);
      return cdp;
    };
    await phone();
    // Counted where the bytes leave the server: the voice's files are fetched by the service worker,
    // whose requests the page's own network events do not report.
    const before = sent();
    cold.push(await firstSound(page, 'Listen'));
    if (run === 0) firstBytes = sent() - before;
    for (const language of ['en', 'sw'] as const) {
      await page.reload();
      await page.getByTestId('language-switch').selectOption(language);
      for (let i = 0; i < RUNS; i++) {
        await page.reload();
        await page.getByTestId('result-heading').first().waitFor();
        await phone();
        warm[language].push(await firstSound(page, language === 'en' ? 'Listen' : 'Sikiliza'));
      }
    }
    // The account's language goes back to English for the next run's first Listen (after a reload: silence).
    await page.reload();
    await page.getByTestId('language-switch').selectOption('en');
    await page.getByRole('button', { name: 'Listen' }).first().waitFor();
    await context.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
  await t.close();
  console.log(
    '\n3. Tap on Listen to first sound, a mid-range phone (4x slower CPU, 1.6 Mbit/s, 150 ms), median of runs',
  );
  console.log(
    `   first Listen (voice downloaded and compiled): ${median(cold).toFixed(0)} ms (runs: ${cold.map((x) => x.toFixed(0)).join(', ')}); ${kib(firstBytes)} over the network`,
  );
  // The throttle is the page's: the service worker's own fetches may not be held to it, so the download's
  // time on such a network is also given as arithmetic.
  console.log(
    `   (those bytes alone take ${((firstBytes * 8) / 1_600_000).toFixed(1)} s at 1.6 Mbit/s, whatever the throttle applied)`,
  );
  console.log(
    `   later, English (voice from the service worker): ${median(warm.en).toFixed(0)} ms (runs: ${warm.en.map((x) => x.toFixed(0)).join(', ')})`,
  );
  console.log(
    `   later, Kiswahili:                               ${median(warm.sw).toFixed(0)} ms (runs: ${warm.sw.map((x) => x.toFixed(0)).join(', ')})`,
  );
  if (firstBytes < 300 * 1024) fail(`the first Listen moved ${kib(firstBytes)}: the voice was not downloaded`);
}

async function serverCost() {
  const t = await createTestApp({ env: { AT_CALLBACK_SECRET: KEY, PHONE_RATE_LIMIT_MAX: '100000' } });
  const speech = createSpeech();
  console.log("\n4. The server: the voice call's result step (result sentence, advice, key prompt, goodbye)");
  for (const language of ['en', 'sw'] as const) {
    const farmer = await createUser(t, 'farmer', { language });
    const form = multipart([{ field: 'image', filename: 'leaf.jpg', data: fixture('maize-common-rust.jpg') }], {
      crop: 'maize',
    });
    await t.app.inject({
      method: 'POST',
      url: analysisApi.detect,
      headers: { ...farmer.headers, ...form.headers },
      payload: form.payload,
    });
    const advice = (await t.app.inject({ url: analysisApi.advice, headers: farmer.headers })).json() as AdviceList;
    const rust = advice.results.find((a) => a.topic === 'common_rust' && a.crop === 'maize')!;
    const sentences = [
      text(language, 'voice.call.result.common_rust'),
      adviceVoiceText(rust),
      text(language, 'voice.call.after'),
      text(language, 'voice.call.goodbye'),
    ];
    let wall = 0;
    let cpu = 0;
    for (const s of sentences) {
      const cpu0 = childCpu();
      const t0 = performance.now();
      await speech.synthesize(s, language);
      wall += performance.now() - t0;
      cpu += childCpu() - cpu0;
    }
    const key = String(language === 'en' ? 1 : 2);
    const step = async () => {
      const t0 = performance.now();
      const steps = await placeCall(t, { from: farmer.phone, keys: [key], key: KEY });
      const ms = performance.now() - t0;
      if ((steps[1]?.played.length ?? 0) < 4) fail(`the ${language} call played no result`);
      return ms;
    };
    const coldMs = await step();
    const storedMs = [await step(), await step(), await step()];
    console.log(
      `   ${language}: the four sentences rendered one by one: ${wall.toFixed(0)} ms wall, ${(cpu * 1000).toFixed(0)} ms CPU (eSpeak NG + ffmpeg);` +
        ` the call up to its result (menu and result steps), nothing rendered yet: ${coldMs.toFixed(0)} ms; from storage: ${median(storedMs).toFixed(0)} ms`,
    );
  }
  await t.close();
}

voiceFiles();
await clipSize();
await serverCost();
await timeToFirstSound();
console.log(`\n(${os.cpus().length} cores, load ${os.loadavg()[0]!.toFixed(1)})`);
process.exit(failed ? 1 : 0);
