/**
 * npm run bench:offline-model
 * The phone's offline diagnosis in a real browser (Debian Chromium, headless, onnxruntime-web WASM, one
 * thread): session start and median inference time of the served model's float and int8 files over 20
 * runs on a committed leaf tensor, and the bytes a phone downloads for each. Figures only, no pass/fail.
 */
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { defaultModelDir, INPUT_SIZE, preprocess } from '@kutu/vision';

const root = path.resolve(import.meta.dirname, '..');
const ortDir = path.join(root, 'node_modules/onnxruntime-web/dist');
const dir = defaultModelDir();
const files = { float: path.join(dir, 'model.onnx'), int8: path.join(dir, 'model.int8.onnx') };
const leaf = fs.readFileSync(path.join(root, 'apps/server/test/fixtures/maize-common-rust.jpg'));
const tensor = Array.from(await preprocess(leaf));

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox'],
});
const page = await browser.newPage();
await page.route('http://bench.local/**', (route) => {
  const name = new URL(route.request().url()).pathname.slice(1);
  if (name === '') return route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>bench</title>' });
  if (name.startsWith('model-'))
    return route.fulfill({ body: fs.readFileSync(files[name.slice(6) as 'float' | 'int8']) });
  const type = name.endsWith('.wasm') ? 'application/wasm' : 'text/javascript';
  return route.fulfill({ contentType: type, body: fs.readFileSync(path.join(ortDir, name)) });
});
await page.goto('http://bench.local/');

for (const kind of ['float', 'int8'] as const) {
  const result = await page.evaluate(
    async ({ kind, tensor, size }) => {
      const ort = await import('http://bench.local/ort.wasm.bundle.min.mjs' as string);
      ort.env.wasm.numThreads = 1;
      ort.env.wasm.wasmPaths = 'http://bench.local/';
      const model = await (await fetch(`http://bench.local/model-${kind}`)).arrayBuffer();
      const started = performance.now();
      const session = await ort.InferenceSession.create(model, { executionProviders: ['wasm'] });
      const load = performance.now() - started;
      const input = new ort.Tensor('float32', Float32Array.from(tensor), [1, 3, size, size]);
      const times: number[] = [];
      for (let i = 0; i < 21; i++) {
        const t = performance.now();
        await session.run({ input });
        if (i > 0) times.push(performance.now() - t);
      }
      times.sort((a, b) => a - b);
      return { load, median: times[Math.floor(times.length / 2)] };
    },
    { kind, tensor, size: INPUT_SIZE },
  );
  const bytes = fs.statSync(files[kind]).size;
  console.log(
    `${kind.padEnd(5)} model ${bytes.toLocaleString('en')} bytes: session start ${result.load.toFixed(0)} ms, inference median ${result.median.toFixed(1)} ms (Chromium, WASM, 1 thread)`,
  );
}
const runtime = fs.statSync(path.join(ortDir, 'ort-wasm-simd-threaded.wasm')).size;
console.log(
  `runtime ort-wasm-simd-threaded.wasm ${runtime.toLocaleString('en')} bytes (downloaded once, with the first model)`,
);
await browser.close();
