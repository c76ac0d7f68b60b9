import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import type { OfflineModelInfo } from '@kutu/contract';
import {
  bandOf,
  combineShares,
  estimateSeverity,
  modelInput,
  RECIPE_ANSWER,
  rustShareOf,
  rustSpots,
  softmax,
} from '@kutu/vision/browser';
import { CHANGED_ANSWER } from '../../../../../packages/vision/test/changed-answer.ts';
import { OfflineResult } from './components/OfflineResult.tsx';
import { renderWithProviders } from '../../test/render.tsx';
import { formatPercent } from '../../lib/format.ts';

/**
 * The phone's offline path from the decoded photo to the result card, with only the runtime, the stored
 * files and the queue replaced: the pixels go through the same resize, rules and severity estimate as on a
 * phone, so the card shows what the estimator reads in them.
 */
const run = vi.hoisted(() => ({ logits: [4, 0, 0, -6] }));

vi.mock('onnxruntime-web/wasm', () => ({
  env: { wasm: {} },
  Tensor: class {},
  InferenceSession: {
    create: async () => ({
      inputNames: ['input'],
      outputNames: ['logits'],
      run: async () => ({ logits: { data: Float32Array.from(run.logits), dims: [1, 4] } }),
      release: async () => {},
    }),
  },
}));

const info: OfflineModelInfo = {
  version: 'v-offline',
  file_url: '/model.onnx',
  bytes: 1,
  sha256: '',
  quantised: true,
  input_size: 160,
  classes: ['common_rust', 'healthy', 'other_disease', 'not_leaf'],
  thresholds: {
    notLeaf: 0.5,
    unsureBelow: 0.7,
    unsureNotLeafAbove: 0.5,
    minPlantFraction: 0.1,
    minGreenFraction: 0.01,
    minContrast: 0.001,
    oodUnsureAbove: null,
    oodNotLeafAbove: null,
  },
  // The committed card's answer settings; a test below stores a card with other ones.
  answer: RECIPE_ANSWER,
  resources: { common_rust: [], healthy: [], other_disease: [], photo_tips: [] },
  advice: [],
};

vi.mock('../../lib/offline/model.ts', () => ({
  storedFiles: async () => ({ info, model: new ArrayBuffer(1), runtime: new ArrayBuffer(1) }),
  useOfflineModel: () => ({ stored: info }),
}));
vi.mock('../../lib/offline/queue.ts', () => ({ enqueue: vi.fn(async () => ({ key: 'first-leaf' })) }));

const { diagnoseOffline } = await import('../../lib/offline/diagnose.ts');
const { enqueue } = await import('../../lib/offline/queue.ts');

const side = 160;
/** A green leaf with rust-orange 4 px squares on every `every`-th cell of a 4 px grid. */
function leaf(every: number): ImageData {
  const data = new Uint8ClampedArray(side * side * 4);
  for (let y = 0; y < side; y++)
    for (let x = 0; x < side; x++) {
      const cell = Math.floor(y / 4) * (side / 4) + Math.floor(x / 4);
      // Fine grain (±8), as a photo in focus has: the leaf finder takes flat colour as out of focus.
      const grain = ((x * 7 + y * 13) % 5) * 4 - 8;
      const colour = cell % every === 0 ? [190, 90, 30] : [60, 140, 50];
      data.set([...colour.map((c) => c + grain), 255], (y * side + x) * 4);
    }
  return { data, width: side, height: side, colorSpace: 'srgb' } as ImageData;
}

let photo: ImageData;
beforeEach(() => {
  vi.stubGlobal('createImageBitmap', async () => ({ width: photo.width, height: photo.height, close() {} }));
  vi.stubGlobal(
    'OffscreenCanvas',
    class {
      getContext() {
        return { drawImage() {}, getImageData: () => photo };
      }
    },
  );
  URL.createObjectURL = () => 'blob:http://localhost/photo';
});
afterEach(() => {
  vi.unstubAllGlobals();
  run.logits = [4, 0, 0, -6];
});

const diagnose = () =>
  diagnoseOffline({ leaves: [{ blob: new Blob(['jpeg']), filename: 'leaf.jpg' }], crop: 'maize' }).then((result) => {
    renderWithProviders(<OfflineResult result={result} />);
    return result;
  });

/**
 * Seedlings scattered over rust-coloured soil: green enough to read, but no one leaf (leaf-mask.ts). `spotted`:
 * larger seedlings (9 px) with a rust-orange 3 px spot in each, enough rust to show once read (over 1 %).
 */
function seedlings(spotted = false): ImageData {
  const data = new Uint8ClampedArray(side * side * 4);
  const size = spotted ? 9 : 5;
  for (let y = 0; y < side; y++)
    for (let x = 0; x < side; x++) {
      const grain = ((x * 7 + y * 13) % 5) * 4 - 8;
      const seedling = x % 20 < size && y % 20 < size && (x + y) % 40 < 20;
      const spot = spotted && seedling && Math.abs((x % 20) - 4) <= 1 && Math.abs((y % 20) - 4) <= 1;
      const colour = spot ? [190, 90, 30] : seedling ? [60, 140, 50] : [150, 80, 35];
      data.set([...colour.map((c) => c + grain), 255], (y * side + x) * 4);
    }
  return { data, width: side, height: side, colorSpace: 'srgb' } as ImageData;
}

describe('severity on an answer made offline (decision 0045)', () => {
  it("shows a confident rust answer's severity band, read on the model's input by the server's estimator, as an estimate", async () => {
    photo = leaf(9);
    const result = await diagnose();
    // The server's estimator on the pixels the model saw (the phone's 160 px input).
    const expected = estimateSeverity(modelInput(photo.data, side, side, side).rgb, side, 'maize');
    expect(bandOf(expected?.share ?? 0, info.answer.severityCuts)).toBe('moderate');
    expect(result.rust_class).toBe('common_rust');
    expect(result.unsure).toBe(false);
    expect(result.severity).toEqual({ share: expected?.share, band: 'moderate', estimate: true });
    expect(screen.getByTestId('severity-band').textContent).toContain(
      `Some rust: spots cover about ${formatPercent(expected?.share ?? 0, 0)} of this leaf.`,
    );
    expect(screen.getByTestId('severity-estimate').textContent).toMatch(/An estimate/);
    // The spots the estimate counted, circled on the photo as the server's function circles them.
    const spots = rustSpots(modelInput(photo.data, side, side, side).rgb, side, 'maize', 1);
    expect(result.rust_spots).toEqual(spots);
    expect(screen.getByTestId('rust-spots').querySelectorAll('g:last-child ellipse')).toHaveLength(
      spots?.boxes.length ?? -1,
    );
    expect(screen.getByTestId('rust-spots-line')).toBeTruthy();
  });

  it('bands a leaf with more rust as severe', async () => {
    photo = leaf(3);
    const result = await diagnose();
    expect(result.severity?.band).toBe('severe');
    expect(screen.getByTestId('severity-badge').textContent).toBe('Severe');
  });

  it('shows no severity on an unsure or a healthy answer, as the server does not', async () => {
    photo = leaf(9);
    run.logits = [0.3, 0, 0, -6];
    const unsure = await diagnose();
    expect(unsure.unsure).toBe(true);
    expect(unsure.severity).toBeNull();
    expect(unsure.rust_spots).toBeNull();
    expect(screen.queryByTestId('result-severity')).toBeNull();
    expect(screen.queryByTestId('rust-spots')).toBeNull();

    run.logits = [0, 4, 0, -6];
    const healthy = await diagnose();
    expect(healthy.severity).toBeNull();
    expect(healthy.rust_spots).toBeNull();
    expect(healthy.severity_unmeasured).toBe(false);
  });

  it('never shows a confident rust answer beside under 1 % of the leaf: it says the share could not be measured', async () => {
    // A leaf with four small rust-orange squares: read, but under the 1 % a rust answer shows (decision 0120).
    photo = leaf(397);
    const share = rustShareOf(modelInput(photo.data, side, side, side).rgb, side, 'maize');
    expect(share).toBeGreaterThan(0);
    expect(share).toBeLessThan(0.01);
    const result = await diagnose();
    expect(result).toMatchObject({ rust_class: 'common_rust', unsure: false, severity: null, rust_spots: null });
    expect(result.severity_unmeasured).toBe(true);
    expect(screen.getByTestId('severity-unmeasured').textContent).toMatch(/could not measure how much of this leaf/);
    expect(screen.queryByTestId('rust-spots')).toBeNull();
  });

  it('says the share could not be measured when no one leaf stands out, as the server does, and rings nothing', async () => {
    photo = seedlings();
    expect(rustShareOf(modelInput(photo.data, side, side, side).rgb, side, 'maize')).toBeNull();
    const result = await diagnose();
    expect(result).toMatchObject({ rust_class: 'common_rust', unsure: false, severity: null, rust_spots: null });
    expect(result.severity_unmeasured).toBe(true);
    expect(screen.getByTestId('severity-unmeasured').textContent).toMatch(/could not measure how much of this leaf/);
    expect(screen.queryByTestId('rust-spots')).toBeNull();
  });
});

describe('a field answer made offline from three leaves (decision 0048)', () => {
  it('combines the leaves with the function the server uses, and queues the others behind the first', async () => {
    photo = leaf(9);
    // Each leaf alone: rust 0.62, unsure under this card's 0.7 cut.
    run.logits = [1.2, 0, 0, -6];
    vi.mocked(enqueue).mockClear();
    const one = await diagnose();
    expect(one.unsure).toBe(true);
    const blob = new Blob(['jpeg']);
    const field = await diagnoseOffline({
      leaves: ['a.jpg', 'b.jpg', 'c.jpg'].map((filename) => ({ blob, filename })),
      crop: 'maize',
    });
    const leafShares = softmax([1.2, 0, 0]);
    const shares = combineShares(
      [0, 1, 2].map(() => ({ common_rust: leafShares[0], healthy: leafShares[1], other_disease: leafShares[2] })),
      info.answer.fieldTemper,
    );
    expect(field.unsure).toBe(false);
    expect(field.confidence).toBeCloseTo(shares[0], 4);
    expect(field.confidence).toBeGreaterThan(one.confidence);
    expect(field.second_photo.photos_left).toBe(0);
    const calls = vi
      .mocked(enqueue)
      .mock.calls.slice(1)
      .map(([item]) => [item.filename, item.fieldOf ?? null]);
    expect(calls).toEqual([
      ['a.jpg', null],
      ['b.jpg', 'first-leaf'],
      ['c.jpg', 'first-leaf'],
    ]);
  });
});

describe("the phone's engine follows the stored card's answer settings, as the server follows its card", () => {
  beforeEach(() => {
    info.answer = CHANGED_ANSWER;
  });
  afterEach(() => {
    info.answer = RECIPE_ANSWER;
  });

  it("measures a leaf only as clearly as the card's leaf cut asks (decision 0081)", async () => {
    // Not measured at the recipe's cut; this card measures any leaf found, however unclear.
    photo = seedlings(true);
    const input = modelInput(photo.data, side, side, side).rgb;
    expect(rustShareOf(input, side, 'maize')).toBeNull();
    const result = await diagnose();
    expect(result.severity_unmeasured).toBe(false);
    expect(result.severity?.share).toBe(rustShareOf(input, side, 'maize', 0));
    expect(result.severity?.share).toBeGreaterThan(0.01);
  });

  it("bands the severity at the card's cuts and asks for a leaf at its close margin", async () => {
    photo = leaf(9);
    // The committed cuts call this leaf moderate (above); from 0.2 % up is severe on this card.
    const result = await diagnose();
    expect(result).toMatchObject({ rust_class: 'common_rust', unsure: false });
    expect(result.severity?.band).toBe('severe');
    // A confident 0.96 leads by 0.95: not "close" at 0.4, close at the card's 0.99.
    expect(result.second_photo).toEqual({ reason: 'close', runner_up: expect.any(String), photos_left: 2 });
  });

  it("combines the leaves at the card's temper and counts rust seen at its cut", async () => {
    photo = leaf(9);
    run.logits = [1.2, 0, 0, -6];
    const blob = new Blob(['jpeg']);
    const field = await diagnoseOffline({
      leaves: ['a.jpg', 'b.jpg', 'c.jpg'].map((filename) => ({ blob, filename })),
      crop: 'maize',
    });
    const [rust, healthy, other] = softmax([1.2, 0, 0]);
    const leaves = [0, 1, 2].map(() => ({ common_rust: rust, healthy, other_disease: other }));
    expect(field.confidence).toBeCloseTo(combineShares(leaves, CHANGED_ANSWER.fieldTemper)[0], 6);
    expect(field.confidence).not.toBeCloseTo(combineShares(leaves, RECIPE_ANSWER.fieldTemper)[0], 3);
    // Each leaf's 0.62 is unsure under this card's 0.7 cut, but reaches the card's rust-seen cut of 0.5.
    expect(field.rust_leaves).toBe(3);
  });
});

describe("the phone answers a crop with the server's learnt unsure cut (decision 0119)", () => {
  afterEach(() => {
    info.unsure_cuts = undefined;
  });

  it("is unsure below the crop's learnt cut, and keeps the card's for other crops and older stored infos", async () => {
    photo = leaf(9);
    // About 96 % sure of rust: confident at the card's 70 %.
    expect((await diagnose()).unsure).toBe(false);
    info.unsure_cuts = { maize: 0.99 };
    const result = await diagnose();
    expect(result).toMatchObject({ rust_class: 'common_rust', unsure: true, severity: null });
    info.unsure_cuts = { beans: 0.99 };
    expect((await diagnose()).unsure).toBe(false);
  });
});
