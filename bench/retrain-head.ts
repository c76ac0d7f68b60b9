/**
 * Retraining's head refit on the repository's base set, in Node (decision 0029) and, where Python with
 * torch is installed, with the previous Python trainer (trainer/train_head.py), on the same photos and the
 * same evaluation set. Prints each run's wall-clock time, the refit's own time, the candidate's numbers on
 * the evaluation set, and how often the two candidates give the same answer.
 *
 *   node bench/retrain-head.ts [--runtime node|python|both] [--threads 2]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  defaultDatasetDir,
  defaultModelDir,
  type EvalReport,
  loadClassifier,
  loadEvalSet,
  trainModel,
} from '../packages/vision/src/index.ts';

const { values } = parseArgs({
  options: { runtime: { type: 'string', default: 'both' }, threads: { type: 'string', default: '2' } },
});
const runtimes = (values.runtime === 'both' ? ['node', 'python'] : [values.runtime]) as ('node' | 'python')[];
const evalItems = loadEvalSet(defaultDatasetDir);
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'kutu-bench-retrain-'));
const pick = (m: EvalReport) => ({
  accuracy: m.accuracy,
  macro_f1: m.macro_f1,
  unsure_rate: m.unsure_rate,
  accuracy_by_setting: m.accuracy_by_setting,
  coverage_by_setting: m.coverage_by_setting,
  confident_wrong_by_setting: m.confident_wrong_by_setting,
});
const dirs: Record<string, string> = {};
/**
 * CPU seconds of this process and its waited-for children (the Python trainer) from /proc/self/stat:
 * wall-clock time on a shared machine says more about the neighbours than about the code.
 */
function cpuSeconds(): number {
  const fields = fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  // utime, stime, cutime, cstime are fields 14–17 of the whole line (11–14 after the command).
  return fields.slice(11, 15).reduce((sum, v) => sum + Number(v), 0) / 100;
}
try {
  for (const runtime of runtimes) {
    const started = Date.now();
    const cpuStart = cpuSeconds();
    const stages: string[] = [];
    const stageCpu: Record<string, number> = {};
    const result = await trainModel({
      dataDirs: [defaultDatasetDir],
      evalItems,
      initFrom: defaultModelDir(),
      initWeights: path.join(defaultModelDir(), 'weights.pt'),
      outDir: path.join(work, runtime),
      version: `bench-${runtime}`,
      epochs: 1,
      threads: Number(values.threads),
      runtime,
      workDir: path.join(work, 'tmp'),
      onProgress: (p) => {
        if (stages.at(-1) !== p.stage) {
          stages.push(p.stage);
          stageCpu[p.stage] = Math.round(cpuSeconds() - cpuStart);
          console.error(`${runtime}: ${((Date.now() - started) / 1000).toFixed(0)} s ${p.stage}`);
        }
      },
    });
    dirs[runtime] = result.modelDir;
    const card = JSON.parse(fs.readFileSync(path.join(result.modelDir, 'model.json'), 'utf8'));
    console.log(
      JSON.stringify({
        runtime,
        wall_clock_seconds: Math.round((Date.now() - started) / 1000),
        cpu_seconds: Math.round(cpuSeconds() - cpuStart),
        cpu_seconds_at_stage_start: stageCpu,
        refit_seconds: card.training.seconds,
        train_counts: result.trainCounts,
        candidate: pick(result.metrics),
      }),
    );
  }
  if (dirs.node && dirs.python) {
    const [a, b] = [await loadClassifier(dirs.node), await loadClassifier(dirs.python)];
    let same = 0;
    let maxDiff = 0;
    for (const item of evalItems) {
      const image = fs.readFileSync(item.file);
      const [x, y] = [await a.classify(image), await b.classify(image)];
      const answer = (d: typeof x) => (d.outcome === 'not_leaf' ? 'not_leaf' : d.unsure ? 'unsure' : d.rust_class);
      if (answer(x) === answer(y)) same++;
      for (const c of ['common_rust', 'healthy', 'other_disease'] as const)
        maxDiff = Math.max(maxDiff, Math.abs(x.probabilities[c] - y.probabilities[c]));
    }
    console.log(
      JSON.stringify({ same_answer: `${same}/${evalItems.length}`, max_probability_difference: maxDiff.toFixed(4) }),
    );
    await a.close();
    await b.close();
  }
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
