import { describe, expect, it } from 'vitest';
import { measureSeverity } from './severity-check.ts';
import { readCard } from './classifier.ts';
import { answerOf } from './card-settings.ts';
import { defaultModelDir } from './index.ts';
import {
  bandOf,
  estimateSeverity,
  MEASURABLE_SHARE,
  rustShareOf,
  severityUnmeasured,
  shownShare,
  shownSeverity,
} from './severity.ts';

/** The committed card's severity cuts (`answer.severityCuts`). */
const ANSWER = answerOf(await readCard(defaultModelDir()));
const CUTS = ANSWER.severityCuts;

const side = 160;

/** A green leaf over the whole photo with rust-orange squares covering `share` of it in a checker of 8 px cells. */
function leafWithRust(share: number, soil = false): Uint8Array {
  const rgb = new Uint8Array(side * side * 3);
  const cells = (side / 8) ** 2;
  const rusty = Math.round(share * cells);
  for (let y = 0; y < side; y++)
    for (let x = 0; x < side; x++) {
      const cell = Math.floor(y / 8) * (side / 8) + Math.floor(x / 8);
      // Spread the rusty cells evenly over the leaf (every k-th cell).
      const k = rusty > 0 ? cells / rusty : Number.POSITIVE_INFINITY;
      const isRust = rusty > 0 && cell % Math.max(1, Math.round(k)) === 0 && cell / Math.round(k) < rusty;
      const colour = soil && x >= side / 2 ? [150, 80, 30] : isRust ? [190, 90, 30] : [60, 140, 50];
      // Fine grain (±8), as a photo in focus has: the leaf finder takes flat colour as out of focus.
      rgb.set(
        colour.map((c) => c + ((x * 7 + y * 13) % 5) * 4 - 8),
        (y * side + x) * 3,
      );
    }
  return rgb;
}

describe('severity estimate', () => {
  it('bands the share at the cut points', () => {
    expect(bandOf(0, CUTS)).toBe('low');
    expect(bandOf(CUTS.moderate - 0.001, CUTS)).toBe('low');
    expect(bandOf(CUTS.moderate, CUTS)).toBe('moderate');
    expect(bandOf(CUTS.severe, CUTS)).toBe('severe');
    // Other cuts on the card, other bands: the cuts come from the card, not from code.
    expect(bandOf(0.1, { moderate: 0.05, severe: 0.2 })).toBe('moderate');
    expect(bandOf(0.1, { moderate: 0.02, severe: 0.08 })).toBe('severe');
  });

  it('reads the rust-coloured share of a drawn leaf', () => {
    for (const share of [0, 0.1, 0.3]) {
      const s = estimateSeverity(leafWithRust(share), side, 'maize');
      expect(s?.share).toBeCloseTo(share, 1);
    }
    expect(bandOf(estimateSeverity(leafWithRust(0.3), side)?.share ?? 0, CUTS)).toBe('severe');
  });

  it('does not count rust-coloured soil beside a bean leaf, and says nothing without a leaf', () => {
    const s = estimateSeverity(leafWithRust(0, true), side, 'beans');
    expect(s?.share).toBeLessThan(0.02);
    expect(estimateSeverity(new Uint8Array(side * side * 3).fill(128), side)).toBeNull();
  });

  it("reads a photo's share with its crop's rules, as the server and the phone both store and show it", () => {
    const soil = leafWithRust(0.1, true);
    expect(rustShareOf(soil, side, 'beans')).toBe(estimateSeverity(soil, side, 'beans')?.share);
    for (const crop of ['maize', 'other', null, undefined])
      expect(rustShareOf(soil, side, crop)).toBe(estimateSeverity(soil, side, 'maize')?.share);
    // The same pixels read differently under maize's rules and beans', so the crop really picks the rules: beans
    // count the yellow-brown of a pustule with its halo (hue 52°), maize does not.
    const halo = new Uint8Array(side * side * 3);
    for (let y = 0; y < side; y++)
      for (let x = 0; x < side; x++) {
        const colour = x % 12 < 3 && y % 12 < 3 ? [200, 180, 40] : [60, 140, 50];
        halo.set(
          colour.map((c) => c + ((x * 7 + y * 13) % 5) * 4 - 8),
          (y * side + x) * 3,
        );
      }
    // (A drawn grid of spots is no leaf shape: read with no leaf cut, as the rules are what is shown here.)
    expect(rustShareOf(halo, side, 'beans', 0)).toBeGreaterThan((rustShareOf(halo, side, 'maize', 0) ?? 1) + 0.03);
    expect(rustShareOf(new Uint8Array(side * side * 3).fill(128), side, 'maize')).toBeNull();
  });

  it('shows a severity on a confident rust answer only', () => {
    const rust = { outcome: 'diagnosis', rustClass: 'common_rust', unsure: false };
    expect(shownSeverity(rust, 0.12, CUTS)).toEqual({ share: 0.12, band: 'moderate' });
    expect(shownSeverity({ ...rust, unsure: true }, 0.12, CUTS)).toBeNull();
    expect(shownSeverity({ ...rust, rustClass: 'healthy' }, 0.12, CUTS)).toBeNull();
    expect(shownSeverity({ ...rust, outcome: 'not_leaf', rustClass: null }, 0.12, CUTS)).toBeNull();
    expect(shownSeverity(rust, null, CUTS)).toBeNull();
  });

  it('never shows a confident rust answer beside under 1 % of the leaf: it says the share could not be measured', () => {
    // A confident rust answer with a reading of 0.2 % (iBean bean_rust__0008's pale pustules) or 0 % (0007).
    const rust = { outcome: 'diagnosis', rustClass: 'common_rust', unsure: false };
    expect(MEASURABLE_SHARE).toBe(0.01);
    for (const share of [0, 0.0018, 0.0099]) {
      expect(shownSeverity(rust, share, CUTS)).toBeNull();
      expect(shownShare(rust, share)).toBeNull();
      expect(severityUnmeasured(rust, share)).toBe(true);
    }
    expect(shownSeverity(rust, 0.01, CUTS)).toEqual({ share: 0.01, band: 'low' });
    expect(severityUnmeasured(rust, 0.01)).toBe(false);
    // Answers that show no share anyway are not "could not be measured".
    expect(severityUnmeasured({ ...rust, unsure: true }, 0)).toBe(false);
    expect(severityUnmeasured({ ...rust, rustClass: 'healthy' }, 0)).toBe(false);
  });

  // Measured 2026-11-27 at the served leaf cut (node packages/vision/src/cli/eval-severity.ts, decision 0081): 27
  // of 48 measured (beans 23 of 24, maize 4 of 24), same band 81.5 %, Pearson 0.71 on them (at 0.5 before 0081:
  // all 48, 87.5 %, 0.91). The rules and cut points were tuned on these photos (docs/decisions/0045), so this
  // guards against regressions, not over-fitting.
  it('agrees with the pustule masks of the rusty field photos it measures', async () => {
    const r = await measureSeverity(ANSWER);
    expect(r.photos + r.unmeasured.length).toBe(48);
    expect(r.photos).toBeGreaterThanOrEqual(24);
    expect(r.bandAgreement).toBeGreaterThanOrEqual(0.75);
    expect(r.pearson).toBeGreaterThanOrEqual(0.6);
    expect(r.byCrop.beans.pearson).toBeGreaterThanOrEqual(0.65);
  }, 60_000);
});
