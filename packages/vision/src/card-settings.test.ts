import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHANGED_ANSWER } from '../test/changed-answer.ts';
import { answerOf, cardSettings, RECIPE_ANSWER } from './card-settings.ts';
import { loadClassifier, readCard } from './classifier.ts';
import { defaultModelDir } from './index.ts';

const committed = await readCard(defaultModelDir());

describe("the card's settings (one reader for the server and the phone)", () => {
  it('reads the committed card: its cuts and the answer settings the field figures were measured with', () => {
    const settings = cardSettings(committed);
    expect(settings.version).toBe(committed.version);
    expect(settings.thresholds.unsureBelow).toBe(committed.thresholds?.unsureBelow);
    // Moving the numbers onto the card changed none of them; the leaf cut came later (decision 0081).
    expect(settings.answer).toEqual({
      fieldTemper: 0.6,
      closeMargin: 0.4,
      severityCuts: { moderate: 0.05, severe: 0.2 },
      rustSeen: 'confident',
      leafConfidence: 0.6,
    });
  });

  it("reads another card's settings, not code's", () => {
    expect(answerOf({ ...committed, answer: CHANGED_ANSWER })).toEqual(CHANGED_ANSWER);
  });

  it('names the missing setting of a half-written block, and a bad value', () => {
    const { closeMargin: _, ...noMargin } = CHANGED_ANSWER;
    expect(() => answerOf({ version: 'v9', answer: noMargin })).toThrow(
      'model.json of v9 gives no answer.closeMargin: a card',
    );
    const noSevere = { ...CHANGED_ANSWER, severityCuts: { moderate: 0.5 } };
    expect(() => cardSettings({ ...committed, answer: noSevere })).toThrow(/gives no answer\.severityCuts\.severe/);
    expect(() => answerOf({ answer: { ...CHANGED_ANSWER, fieldTemper: 0 } })).toThrow(
      /answer\.fieldTemper must be a number in \(0, 1\] or "mean", not 0/,
    );
    expect(() => answerOf({ answer: { ...CHANGED_ANSWER, rustSeen: 'sometimes' } })).toThrow(
      /answer\.rustSeen must be/,
    );
    const crossed = { ...CHANGED_ANSWER, severityCuts: { moderate: 0.3, severe: 0.2 } };
    expect(() => answerOf({ answer: crossed })).toThrow(/moderate must be below answer\.severityCuts\.severe/);
  });

  it('gives a card from before the block the values it was served with (an older retrained model, a stored phone copy)', () => {
    const { answer: _, ...before } = committed;
    expect(answerOf(before)).toEqual(RECIPE_ANSWER);
    expect(RECIPE_ANSWER).toEqual({ ...answerOf(committed), leafConfidence: RECIPE_ANSWER.leafConfidence });
  });

  it('gives a block written before the leaf cut the cut it was served with, and checks a given one', () => {
    const { leafConfidence: _, ...before } = CHANGED_ANSWER;
    expect(answerOf({ version: 'v9', answer: before })).toEqual({ ...CHANGED_ANSWER, leafConfidence: 0.5 });
    expect(answerOf({ answer: CHANGED_ANSWER }).leafConfidence).toBe(0);
    expect(() => answerOf({ answer: { ...CHANGED_ANSWER, leafConfidence: 1.5 } })).toThrow(
      /answer\.leafConfidence must be a number in \[0, 1\], not 1\.5/,
    );
  });

  it('refuses to load a model whose card lacks a setting, naming it', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kutu-card-'));
    try {
      const { rustSeen: _, ...lacking } = CHANGED_ANSWER;
      fs.writeFileSync(path.join(dir, 'model.json'), JSON.stringify({ ...committed, answer: lacking }));
      fs.copyFileSync(path.join(defaultModelDir(), 'model.onnx'), path.join(dir, 'model.onnx'));
      await expect(loadClassifier(dir)).rejects.toThrow(/gives no answer\.rustSeen/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
