/**
 * The field gate before any farmer depends on it (docs/decisions/0086). The repository's field photos
 * (PlantDoc maize, iBean beans; datasets/rust3/SOURCES.md) come in as experts' verdicts over twelve months,
 * source by source, in farmers of 1 to 8 photos; one farmer in five is held back (`holdsOutFarmer`, as the
 * server does). Every three months a retraining refits the head (refit.ts, on the served backbone's cached
 * features: research/fieldgate/features.ts) and three candidates meet the gate:
 *
 * - better: the lab photos and every training-side field photo so far, warm-started from the active head;
 * - flipped: the same with a fifth of the field photos' labels flipped to another class;
 * - maize flipped: the same with only the maize field photos' flips (worse where today's rule cannot see);
 * - lab only: the lab photos alone (the starting model).
 *
 * Each is judged as the server judges it (modules/training/decision.ts, `fieldGateRule`): the field check of
 * each crop (`checkCrops`) on its held-back photos and the fixed evaluation set's field photos (140 iBean
 * beans), and today's rule on the fixed set (`compareOnEvalSet`), whose field-photo part gives way to the
 * paired check where that judges their crop; answers by the served `decide()` at the served cuts. Then the power: how many held-back photos a crop needs before a 3-point loss is found,
 * from the exact test's power at the disagreement seen between real candidates, checked by resampling.
 *
 *   node packages/vision/research/fieldgate/simulate.ts --cache DIR [--min-photos N] [--seed 2026]
 *
 * Caveats: the served backbone was fine-tuned on these photos (not on the evaluation set), so every head
 * here reads features that already know them; the starting head is fitted from zero, never from the served
 * head. All heads keep the served ood statistics. A pseudo-farmer is a random group of one source's photos.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { cardSettings } from '../../src/card-settings.ts';
import { defaultDatasetDir, loadEvalSet } from '../../src/dataset.ts';
import { CLASSES, decide, softmax } from '../../src/decide.ts';
import {
  checkCrops,
  compareOnEvalSet,
  FIELD_GATE,
  fieldJudgedByCheck,
  type FieldAnswer,
  fieldAnswer,
  holdsOutFarmer,
  mcnemarPower,
  mcnemarWorseP,
  overallOnly,
  type PairedPhoto,
  photosNeeded,
} from '../../src/field-gate.ts';
import { linearLogits, oodScores } from '../../src/head-fit.ts';
import { defaultModelDir } from '../../src/index.ts';
import { type OnnxHead, readOnnxHead } from '../../src/onnx-edit.ts';
import { type FeatureSet, fitHeadOnSets, loadFeatures } from '../../src/refit.ts';
import { seededRandom } from '../../src/seeded-random.ts';

const { values } = parseArgs({
  options: {
    cache: { type: 'string' },
    'min-photos': { type: 'string', default: String(FIELD_GATE.minPhotos) },
    seed: { type: 'string', default: '2026' },
    months: { type: 'string', default: '12' },
    every: { type: 'string', default: '3' },
  },
});
if (!values.cache) throw new Error('--cache DIR is required (research/fieldgate/features.ts writes it)');
const started = Date.now();
const minPhotos = Number(values['min-photos']);
const months = Number(values.months);
const every = Number(values.every);
const rand = seededRandom(Number(values.seed));
const say = (o: Record<string, unknown>) => console.log(JSON.stringify(o));

const train = loadFeatures(values.cache, 'train');
const neg = loadFeatures(values.cache, 'nonleaf');
if (!train || !neg) throw new Error(`no features in ${values.cache}: run research/fieldgate/features.ts first`);
const colours = JSON.parse(fs.readFileSync(path.join(values.cache, 'colours.json'), 'utf8'));
const served = defaultModelDir();
const card = JSON.parse(fs.readFileSync(path.join(served, 'model.json'), 'utf8'));
const { thresholds } = cardSettings(card);
const servedHead = readOnnxHead(fs.readFileSync(path.join(served, 'model.onnx')));
const dims = train.meta.dims;
const n = train.meta.count;
const items = train.meta.items;
const orig = train.data.subarray(0, n * dims);
const ood = oodScores(orig, dims, {
  projection: servedHead.oodProjection,
  k: servedHead.oodK,
  means: servedHead.oodMeans,
});

const evalNames = new Set(loadEvalSet(defaultDatasetDir).map((i) => path.basename(i.file)));
const isEval = items.map((i) => evalNames.has(path.basename(i.file)));
const cropOf = (i: number) =>
  items[i].source === 'plantdoc' ? 'maize' : items[i].source === 'ibean' ? 'beans' : 'lab';
const base = items.flatMap((it, i) => (it.setting === 'lab' && !isEval[i] ? [i] : []));
const evalSet = items.flatMap((_, i) => (isEval[i] ? [i] : []));
/** The fixed set's field photos join their crop's field check, as on the server. */
const evalField = evalSet.filter((i) => items[i].setting === 'field');
const evalSetPhotos: Record<string, number> = {};
for (const i of evalField) evalSetPhotos[cropOf(i)] = (evalSetPhotos[cropOf(i)] ?? 0) + 1;

// --- the stream of verified field photos ---
interface Arrival {
  photo: number;
  farmer: number;
  month: number;
  heldOut: boolean;
}
const arrivals: Arrival[] = [];
let nextFarmer = 1;
for (const source of ['plantdoc', 'ibean']) {
  const photos = items.flatMap((it, i) => (it.source === source && !isEval[i] ? [i] : []));
  for (let i = photos.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [photos[i], photos[j]] = [photos[j], photos[i]];
  }
  const farmers: number[][] = [];
  for (let at = 0; at < photos.length; ) {
    const size = 1 + Math.floor(rand() * 8);
    farmers.push(photos.slice(at, at + size));
    at += size;
  }
  for (const [k, group] of farmers.entries()) {
    const farmer = nextFarmer++;
    const month = Math.floor((k * months) / farmers.length);
    for (const photo of group) arrivals.push({ photo, farmer, month, heldOut: holdsOutFarmer(farmer) });
  }
}
// A fifth of the field photos carry another class in the "flipped" candidate (fixed per photo).
const flipped = new Map<number, string>();
for (const a of arrivals) {
  if (rand() >= 0.2) continue;
  const others = CLASSES.filter((c) => c !== items[a.photo].label);
  flipped.set(a.photo, others[Math.floor(rand() * others.length)]);
}
say({
  stream: Object.fromEntries(
    ['maize', 'beans'].map((crop) => {
      const of = arrivals.filter((a) => cropOf(a.photo) === crop);
      return [
        crop,
        {
          photos: of.length,
          farmers: new Set(of.map((a) => a.farmer)).size,
          held_back_photos: of.filter((a) => a.heldOut).length,
          held_back_farmers: new Set(of.filter((a) => a.heldOut).map((a) => a.farmer)).size,
        },
      ];
    }),
  ),
  base_lab_photos: base.length,
  eval_set: evalSet.length,
});

// --- heads and their answers ---
function subset(indices: number[], labels: (i: number) => string): FeatureSet {
  const views = train!.meta.views.length;
  const data = new Float32Array(views * indices.length * dims);
  for (let v = 0; v < views; v++)
    for (const [r, i] of indices.entries())
      data.set(train!.data.subarray((v * n + i) * dims, (v * n + i + 1) * dims), (v * indices.length + r) * dims);
  return {
    meta: { ...train!.meta, count: indices.length, items: indices.map((i) => ({ ...items[i], label: labels(i) })) },
    data,
  };
}
let fitSeconds = 0;
function fit(indices: number[], init: OnnxHead, labels: (i: number) => string = (i) => items[i].label): OnnxHead {
  const t = Date.now();
  const result = fitHeadOnSets(subset(indices, labels), neg, { init, keepOod: true });
  fitSeconds += (Date.now() - t) / 1000;
  return result.head;
}
type Predicted = (typeof CLASSES)[number] | 'unsure' | 'not_leaf';
function answersOf(head: OnnxHead): { predicted: Predicted[]; answers: FieldAnswer[] } {
  const logits = linearLogits(orig, dims, head.weight, head.bias);
  const k = head.classes;
  const predicted: Predicted[] = [];
  const answers: FieldAnswer[] = [];
  for (let i = 0; i < n; i++) {
    const probs = softmax(Array.from(logits.subarray(i * k, (i + 1) * k), (v) => v / head.temperature));
    const d = decide(probs, colours[path.basename(items[i].file)], thresholds, 'simulated', ood[i]);
    predicted.push(d.outcome === 'not_leaf' ? 'not_leaf' : d.unsure ? 'unsure' : d.rust_class!);
    answers.push(fieldAnswer(d, items[i].label));
  }
  return { predicted, answers };
}
const round = (v: number) => Math.round(v * 10000) / 10000;
/** The fixed evaluation set's figures, as evaluate.ts reports them (rounded the same way). */
function evalFigures(model: { predicted: Predicted[]; answers: FieldAnswer[] }) {
  const bySetting: Record<string, { n: number; right: number; wrong: number }> = {};
  let right = 0;
  const f1s = CLASSES.map((c) => {
    let tp = 0;
    let predictedAs = 0;
    let actual = 0;
    for (const i of evalSet) {
      if (model.predicted[i] === c) predictedAs++;
      if (items[i].label === c) actual++;
      if (model.predicted[i] === c && items[i].label === c) tp++;
    }
    const [p, r] = [predictedAs ? tp / predictedAs : 0, actual ? tp / actual : 0];
    return p + r ? (2 * p * r) / (p + r) : 0;
  });
  for (const i of evalSet) {
    bySetting[items[i].setting!] ??= { n: 0, right: 0, wrong: 0 };
    const s = bySetting[items[i].setting!];
    s.n++;
    if (model.answers[i] === 'right') {
      s.right++;
      right++;
    }
    if (model.answers[i] === 'wrong') s.wrong++;
  }
  const per = (f: (s: { n: number; right: number; wrong: number }) => number) =>
    Object.fromEntries(Object.entries(bySetting).map(([k, s]) => [k, round(f(s) / s.n)]));
  return {
    accuracy: round(right / evalSet.length),
    macro_f1: round(f1s.reduce((a, b) => a + b, 0) / f1s.length),
    accuracy_by_setting: per((s) => s.right),
    confident_wrong_by_setting: per((s) => s.wrong),
  };
}
const pairs = (photos: number[], active: FieldAnswer[], candidate: FieldAnswer[]): PairedPhoto[] =>
  photos.map((i) => ({ crop: cropOf(i), truth: items[i].label, active: active[i], candidate: candidate[i] }));

// --- the months ---
const cold: OnnxHead = {
  ...servedHead,
  weight: new Float32Array(servedHead.weight.length),
  bias: new Float32Array(servedHead.bias.length),
};
const labHead = fit(base, cold);
const lab = answersOf(labHead);
let active = { name: 'lab only (month 0)', head: labHead, ...lab };
const tally: Record<string, { judged: number; accepted: number; refusedByField: Record<string, number> }> = {};
let lastHeldBack: number[] = [];
/** How often two good models (a better candidate and the active one) disagree on right answers, per crop. */
const successive: { month: number; crop: string; photos: number; discordance: number }[] = [];
for (let month = every; month <= months; month += every) {
  const arrived = arrivals.filter((a) => a.month < month);
  const training = arrived.filter((a) => !a.heldOut).map((a) => a.photo);
  const heldBack = arrived.filter((a) => a.heldOut).map((a) => a.photo);
  lastHeldBack = heldBack;
  const better = fit([...base, ...training], active.head);
  const noisy = fit([...base, ...training], active.head, (i) => flipped.get(i) ?? items[i].label);
  const maizeNoisy = fit([...base, ...training], active.head, (i) =>
    cropOf(i) === 'maize' ? (flipped.get(i) ?? items[i].label) : items[i].label,
  );
  const candidates = [
    { name: 'better', head: better, ...answersOf(better) },
    { name: 'flipped', head: noisy, ...answersOf(noisy) },
    { name: 'maize flipped', head: maizeNoisy, ...answersOf(maizeNoisy) },
    { name: 'lab only', head: labHead, ...lab },
  ];
  const activeEval = evalFigures(active);
  let next = active;
  for (const c of candidates) {
    if (c.head === active.head) continue; // the active model itself: nothing to judge
    const crops = checkCrops(pairs([...heldBack, ...evalField], active.answers, c.answers), { minPhotos });
    const pointsGiveWay = fieldJudgedByCheck(crops, evalSetPhotos);
    const today = pointsGiveWay
      ? compareOnEvalSet(overallOnly(evalFigures(c)), overallOnly(activeEval))
      : compareOnEvalSet(evalFigures(c), activeEval);
    const fieldWorse = crops.filter((k) => k.outcome === 'worse').map((k) => k.crop);
    const accepted = today.accepted && fieldWorse.length === 0;
    tally[c.name] ??= { judged: 0, accepted: 0, refusedByField: {} };
    const t = tally[c.name];
    t.judged++;
    if (accepted) t.accepted++;
    for (const crop of fieldWorse) t.refusedByField[crop] = (t.refusedByField[crop] ?? 0) + 1;
    say({
      month,
      candidate: c.name,
      against: active.name,
      accepted,
      today_rule: today.accepted,
      today_field_points: !pointsGiveWay,
      today: { candidate: evalFigures(c), active: activeEval },
      field: crops.map((k) => ({
        crop: k.crop,
        photos: k.photos,
        outcome: k.outcome,
        right: `${k.right.candidate} vs ${k.right.active} (lost ${k.right.worse}, gained ${k.right.better}, p ${k.right.p.toFixed(4)})`,
        confident_wrong: `${k.confident_wrong.candidate} vs ${k.confident_wrong.active} (more ${k.confident_wrong.worse}, fewer ${k.confident_wrong.better}, p ${k.confident_wrong.p.toFixed(4)})`,
        detectable_points: k.detectable_points,
      })),
    });
    if (c.name === 'better') {
      for (const k of crops) {
        const discordance = round((k.right.worse + k.right.better) / k.photos);
        successive.push({ month, crop: k.crop, photos: k.photos, discordance });
      }
    }
    if (c.name === 'better' && accepted) next = { ...c, name: `better (month ${month})` };
  }
  active = next;
}
say({ summary: tally, fit_seconds: Math.round(fitSeconds) });

// --- how many photos a 3-point loss needs ---
// (a) The exact test's power at the disagreement seen between successive good models (month 3's is against
// the lab-only start, left out). The fixed set's field photos count: a crop needs that many fewer held back.
const good = successive.filter((x) => x.month > every && x.discordance > 0);
for (const x of good) say({ successive_better: x });
for (const crop of ['maize', 'beans']) {
  const seen = good.filter((x) => x.crop === crop).map((x) => x.discordance);
  for (const psi of [...new Set([0.03, 0.05, 0.1, ...seen])].sort((a, b) => a - b)) {
    const photos = photosNeeded(psi, 0.03);
    const heldBack = photos === null ? null : Math.max(0, photos - (evalSetPhotos[crop] ?? 0));
    say({
      crop,
      loss_points: 3,
      discordance: psi,
      seen: seen.includes(psi),
      field_photos_for_80pct_power: photos,
      held_back_needed: heldBack,
      verified_photos_at_one_in_five: heldBack === null ? null : heldBack * FIELD_GATE.holdOutEvery,
    });
  }
}

// (b) A real head 3 points worse: part of the way from the final active head to the lab-only head, the part
// found by halving so it answers 3 points fewer of the beans pool right (the last held-back beans and the
// fixed set's). Resampling that pool shows how often the test finds the loss at each number of photos,
// against the exact power at the pair's own disagreement.
const beans = [...lastHeldBack.filter((i) => cropOf(i) === 'beans'), ...evalField];
const between = (lambda: number): OnnxHead => ({
  ...active.head,
  weight: active.head.weight.map((w, j) => (1 - lambda) * w + lambda * labHead.weight[j]),
  bias: active.head.bias.map((b, j) => (1 - lambda) * b + lambda * labHead.bias[j]),
});
const lossOn = (answers: FieldAnswer[]) => {
  let [lost, gained] = [0, 0];
  for (const i of beans) {
    if (active.answers[i] === 'right' && answers[i] !== 'right') lost++;
    if (answers[i] === 'right' && active.answers[i] !== 'right') gained++;
  }
  return { lost, gained, loss: (lost - gained) / beans.length, discordance: (lost + gained) / beans.length };
};
let [low, high] = [0, 1];
let worse = { lambda: 1, answers: lab.answers, ...lossOn(lab.answers) };
for (let step = 0; step < 14; step++) {
  const lambda = (low + high) / 2;
  const answers = answersOf(between(lambda)).answers;
  const found = lossOn(answers);
  if (found.loss >= 0.03) [high, worse] = [lambda, { lambda, answers, ...found }];
  else low = lambda;
}
say({
  three_point_head: {
    lambda: round(worse.lambda),
    photos: beans.length,
    lost: worse.lost,
    gained: worse.gained,
    loss_points: round(worse.loss * 100),
    discordance: round(worse.discordance),
    photos_for_80pct_power: photosNeeded(worse.discordance, worse.loss),
  },
});
for (const size of [100, 200, 400, 800, 1600]) {
  let refused = 0;
  const draws = 1000;
  for (let d = 0; d < draws; d++) {
    let [lost, gained] = [0, 0];
    for (let j = 0; j < size; j++) {
      const i = beans[Math.floor(rand() * beans.length)];
      if (active.answers[i] === 'right' && worse.answers[i] !== 'right') lost++;
      if (worse.answers[i] === 'right' && active.answers[i] !== 'right') gained++;
    }
    if (mcnemarWorseP(lost, gained) < FIELD_GATE.alpha) refused++;
  }
  say({
    resampled_3_points: {
      photos: size,
      refused_share: round(refused / draws),
      exact_power: round(mcnemarPower(size, worse.discordance, worse.loss)),
    },
  });
}
say({ seconds: Math.round((Date.now() - started) / 1000) });
