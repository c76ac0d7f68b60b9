/**
 * What a farmer is shown on the iBean and PlantDoc rust photos the served model never trained on (docs/decisions/0120;
 * held out as its card says, `held-out.ts`: iBean, the evaluation set's; PlantDoc, none: the served model trained on
 * all of them; a training photo is refused when read): each photo classified as the server classifies it, with its crop named (iBean: beans, PlantDoc: maize), and, for
 * the confident rust answers, whether a share and rings are shown or "could not be measured" (no leaf told
 * apart, or under `MEASURABLE_SHARE` read as rust). `--sheet DIR` draws each photo that shows rings, as the model
 * sees it (160 px, twice its size), with the rings, to check by eye that they lie on the leaf.
 *
 *   node packages/vision/research/leaf-outlines/shown.ts [--sheet DIR]
 *
 * Prints Markdown; exits 1 when a confident rust answer shows a share under 1 % or no photo was read.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { loadClassifier } from '../../src/classifier.ts';
import { defaultModelDir } from '../../src/index.ts';
import { loadOutlines, outlineOf, ringedOn } from '../../src/leaf-check.ts';
import { decodeRgb } from '../../src/preprocess.ts';
import { heldOutOf } from './held-out.ts';
import { MEASURABLE_SHARE, severityUnmeasured, shownShare } from '../../src/severity.ts';

const { values } = parseArgs({ options: { sheet: { type: 'string' } } });
const SOURCES = [
  { name: 'iBean (beans named)', prefix: 'ibean__', crop: 'beans' },
  { name: 'PlantDoc (maize named)', prefix: 'plantdoc__', crop: 'maize' },
] as const;

const model = await loadClassifier(defaultModelDir());
const heldOut = heldOutOf(model.card);
const pct = (v: number) => `${(100 * v).toFixed(1)} %`;
let read = 0;
let wrong = 0;
console.log(
  `Shown with a confident rust answer, on the rust photos held out from model ${model.version} only (measurable from ${pct(MEASURABLE_SHARE)})\n`,
);
console.log(
  '| source | photos | confident rust answers | share shown | could not be measured: no leaf told apart | under 1 % read | rings shown | their ringed area on the outlined leaf |',
);
console.log('|---|---|---|---|---|---|---|---|');
const outlines = new Map(loadOutlines().map((o) => [o.file, o]));
const ringed: { file: string; boxes: [number, number, number, number][]; share: number; onLeaf: string }[] = [];
for (const source of SOURCES) {
  const files = heldOut.photos('common_rust', source.prefix);
  const t = { photos: 0, rust: 0, shown: 0, noLeaf: 0, under: 0, rings: 0, ringPx: 0, onLeafPx: 0, outlined: 0 };
  for (const photo of files) {
    const file = path.basename(photo);
    const d = await model.classify(heldOut.read(photo), { crop: source.crop });
    t.photos++;
    const answer = { outcome: d.outcome, rustClass: d.rust_class ?? null, unsure: d.unsure };
    if (!(d.outcome === 'diagnosis' && d.rust_class === 'common_rust' && !d.unsure)) continue;
    t.rust++;
    const share = d.rust_share ?? null;
    const shown = shownShare(answer, share);
    if (shown !== null && shown < MEASURABLE_SHARE) wrong++;
    if (severityUnmeasured(answer, share)) {
      if (share === null) t.noLeaf++;
      else t.under++;
    } else if (shown !== null) {
      t.shown++;
      t.rings += d.rust_spots?.boxes.length ?? 0;
      const outline = outlines.get(`common_rust/${file}`);
      let onLeaf = 'not outlined';
      if (d.rust_spots?.boxes.length && outline) {
        // The rings on the square input the outline is drawn on (the photo squashed, as the model sees it).
        const on = ringedOn({ ...d.rust_spots, side: d.rust_spots.side }, outlineOf(outline, d.rust_spots.side));
        [t.ringPx, t.onLeafPx, t.outlined] = [t.ringPx + on.ringPx, t.onLeafPx + on.onLeafPx, t.outlined + 1];
        onLeaf = pct(on.onLeafPx / Math.max(1, on.ringPx));
      }
      if (d.rust_spots?.boxes.length) ringed.push({ file: photo, boxes: d.rust_spots.boxes, share: shown, onLeaf });
    }
  }
  read += t.photos;
  const onLeaf = t.ringPx ? pct(t.onLeafPx / t.ringPx) : '–';
  if (t.photos === 0) {
    console.log(`| ${source.name} | 0 (none held out from this model) | – | – | – | – | – | – |`);
    continue;
  }
  console.log(
    `| ${source.name} | ${t.photos} | ${t.rust} | ${t.shown} | ${t.noLeaf} | ${t.under} | ${t.rings} | ${onLeaf} (${t.outlined} photos) |`,
  );
}
await model.close();

console.log('\nPhotos whose confident rust answer shows rings\n');
console.log('| photo | share shown | rings | ringed area on the outlined leaf |');
console.log('|---|---|---|---|');
for (const r of ringed)
  console.log(`| ${path.basename(r.file, '.jpg')} | ${pct(r.share)} | ${r.boxes.length} | ${r.onLeaf} |`);

if (values.sheet) {
  const S = 160;
  const Z = 2;
  fs.mkdirSync(values.sheet, { recursive: true });
  for (const r of ringed) {
    const rgb = await decodeRgb(heldOut.read(r.file), S);
    let svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${S * Z}" height="${S * Z}" viewBox="0 0 ${S} ${S}">`;
    for (const [x0, y0, x1, y1] of r.boxes)
      svg += `<rect x="${x0 - 1}" y="${y0 - 1}" width="${x1 - x0 + 2}" height="${y1 - y0 + 2}" fill="none" stroke="#f0f" stroke-width="0.5"/>`;
    svg += `<text x="2" y="157" font-size="7" fill="#ff0">${path.basename(r.file, '.jpg')} ${pct(r.share)}</text></svg>`;
    await sharp(rgb, { raw: { width: S, height: S, channels: 3 } })
      .resize(S * Z, S * Z, { kernel: 'nearest' })
      .composite([{ input: Buffer.from(svg) }])
      .png()
      .toFile(path.join(values.sheet, `${path.basename(r.file, '.jpg')}.png`));
  }
}

if (read === 0 || wrong > 0) {
  console.error(read === 0 ? 'No photo was read' : `${wrong} confident rust answers show a share under 1 %`);
  process.exit(1);
}
