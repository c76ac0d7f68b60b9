/**
 * Inference latency, measured (npm run bench:analysis).
 *
 * For a 12-megapixel JPEG (4000×3000, a dataset leaf upscaled with noise so it compresses like a
 * camera photo), in one run:
 *   - sharp alone: decode + resize to the model's input size (the floor for any server-side path);
 *   - classify: the model's full path (decode, resize, normalise, ONNX run, and the heatmap PNG that
 *     every diagnosis carries; the bench checks that it was drawn);
 *   - HTTP route: POST /api/rust-detection/ through app.inject (multipart parse, content check with a
 *     full decode, classify, storing the photo, the database row and the notification);
 * and the same route for the photo the web app sends after shrinking it in the browser (1024 px, q 0.85).
 * Prints medians of N runs and the ratios; sharp alone and classify() run in turns, so load on a shared machine
 * slows both alike, with their CPU time (all threads), which such load changes least. Set BENCH_RUNS to change N
 * (default 15); BENCH_SKIP_ROUTE=1 leaves out the HTTP route rows. Ends with a non-zero exit code, printing no
 * figure, when no run was timed (`measured.ts`).
 */
import os from 'node:os';
import sharp from 'sharp';
import { defaultModelDir, loadClassifier } from '@kutu/vision';
import { createTestApp } from '../apps/server/test/support/app.ts';
import { createUser } from '../apps/server/test/support/users.ts';
import { createClassifierHolder } from '../apps/server/src/adapters/classifier.ts';
import { bigLeafJpeg, multipart } from '../apps/server/test/support/photos.ts';
import { atLeast, ensure, timings } from './measured.ts';

const RUNS = atLeast(Number(process.env.BENCH_RUNS ?? 15), 1, 'timed runs (BENCH_RUNS)');
const WARMUP = 3;
const MAX_UPLOAD = 5 * 1024 * 1024;

const summary = (label: string, times: number[]) => {
  const sorted = timings(times, label).sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)];
  const p90 = sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.9))];
  return { label, median, p90, min: sorted[0] };
};

async function measure(label: string, fn: () => Promise<unknown>) {
  for (let i = 0; i < WARMUP; i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  return summary(label, times);
}

/** CPU milliseconds the whole process (every thread: sharp's, onnxruntime's) spent since `from`. */
const cpuSince = (from: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(from);
  return (used.user + used.system) / 1000;
};

/**
 * Two paths run in turns (a, b, a, b, …), so a busy machine slows both alike: each one's wall times, the median
 * of b ÷ a over the turns, and the ratio of their median CPU times (the process's, all threads), which a machine
 * shared with other jobs changes least.
 */
async function measurePair(labels: [string, string], a: () => Promise<unknown>, b: () => Promise<unknown>) {
  for (let i = 0; i < WARMUP; i++) {
    await a();
    await b();
  }
  const [ta, tb, ratios, ca, cb]: number[][] = [[], [], [], [], []];
  for (let i = 0; i < RUNS; i++) {
    for (const [fn, wall, cpu] of [
      [a, ta, ca],
      [b, tb, cb],
    ] as const) {
      const [start, used] = [performance.now(), process.cpuUsage()];
      await fn();
      wall.push(performance.now() - start);
      cpu.push(cpuSince(used));
    }
    ratios.push(tb[i] / ta[i]);
  }
  return {
    a: summary(labels[0], ta),
    b: summary(labels[1], tb),
    ratio: summary('ratio', ratios).median,
    cpu: [summary(labels[0], ca).median, summary(labels[1], cb).median],
  };
}

/** The largest-quality 12 MP JPEG that still fits the 5 MB upload limit, so the HTTP route accepts it. */
async function twelveMegapixelJpeg() {
  for (const quality of [92, 88, 84, 80, 75, 70]) {
    const jpeg = await bigLeafJpeg(4000, 3000, quality);
    if (jpeg.length <= MAX_UPLOAD) return { jpeg, quality };
  }
  throw new Error('Could not make a 12 MP JPEG under 5 MB');
}

const { jpeg, quality } = await twelveMegapixelJpeg();
const shrunk = await sharp(jpeg).resize(1024, 1024, { fit: 'inside' }).jpeg({ quality: 85 }).toBuffer();
const model = await loadClassifier(defaultModelDir());
// The model's own input size, so "sharp alone" does exactly the resize the server does.
const INPUT_SIZE = Number(process.env.BENCH_INPUT_SIZE ?? model.card.input_size);
const probe = await model.classify(jpeg);
ensure(probe.outcome === 'diagnosis' && !!probe.heatmap_png, 'a heatmap drawn for the bench photo');

console.log(`Kutu analysis bench — ${new Date().toISOString()}`);
console.log(
  `CPU: ${os.cpus()[0]?.model ?? 'unknown'} × ${os.availableParallelism()} (load ${os.loadavg()[0].toFixed(2)}), Node ${process.version}, sharp ${sharp.versions.sharp} (libvips ${sharp.versions.vips}), sharp threads ${sharp.concurrency()}`,
);
console.log(`Model: ${model.version}; runs: ${RUNS} after ${WARMUP} warm-up runs`);
console.log(
  `Photo: 4000×3000 JPEG, quality ${quality}, ${(jpeg.length / 1024 / 1024).toFixed(2)} MB; browser-shrunk copy 1024×768, ${(shrunk.length / 1024).toFixed(0)} KB`,
);

const pair = await measurePair(
  [`sharp alone: decode + resize to ${INPUT_SIZE}×${INPUT_SIZE}`, 'classify() (full model path, heatmap included)'],
  () => sharp(jpeg).resize(INPUT_SIZE, INPUT_SIZE, { fit: 'fill' }).removeAlpha().raw().toBuffer(),
  () => model.classify(jpeg),
);
const [sharpOnly, classify] = [pair.a, pair.b];

// BENCH_SKIP_ROUTE=1 measures classify() against sharp only (the HTTP route rows take minutes on a busy machine).
if (process.env.BENCH_SKIP_ROUTE) {
  report([sharpOnly, classify]);
  await model.close();
  process.exit(0);
}
const t = await createTestApp({ classifier: createClassifierHolder(model) });
let route: Awaited<ReturnType<typeof measure>>;
let routeShrunk: Awaited<ReturnType<typeof measure>>;
try {
  const farmer = await createUser(t, 'farmer');
  const post = (data: Buffer) => async () => {
    const form = multipart([{ filename: 'photo.jpg', data }]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/rust-detection/',
      payload: form.payload,
      headers: { ...form.headers, ...farmer.headers },
    });
    if (res.statusCode !== 201) throw new Error(`route answered ${res.statusCode}: ${res.body}`);
  };
  route = await measure('HTTP route POST /api/rust-detection/ (12 MP upload)', post(jpeg));
  routeShrunk = await measure('HTTP route with the browser-shrunk photo (1024 px)', post(shrunk));
} finally {
  await t.close();
}

report([sharpOnly, classify, route, routeShrunk]);
console.log(`HTTP route / sharp alone (12 MP): ${(route.median / sharpOnly.median).toFixed(2)}`);
await model.close();

function report(rows: ReturnType<typeof summary>[]) {
  const width = Math.max(...rows.map((r) => r.label.length));
  console.log('');
  console.log(`${'what'.padEnd(width)}  median ms    p90 ms    min ms   × sharp alone`);
  for (const r of rows) {
    console.log(
      `${r.label.padEnd(width)}  ${r.median.toFixed(1).padStart(9)} ${r.p90.toFixed(1).padStart(9)} ${r.min.toFixed(1).padStart(9)}   ${(r.median / sharpOnly.median).toFixed(2).padStart(6)}`,
    );
  }
  console.log('');
  console.log(
    `classify (with heatmap) / sharp alone (12 MP), run in turns: ${(classify.median / sharpOnly.median).toFixed(2)} of the wall-time medians, ${pair.ratio.toFixed(2)} the median of the turns' ratios; CPU time ${pair.cpu[0].toFixed(1)} ms and ${pair.cpu[1].toFixed(1)} ms: ${(pair.cpu[1] / pair.cpu[0]).toFixed(2)} (target ≤ 1.5)`,
  );
}
