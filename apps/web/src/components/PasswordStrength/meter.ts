import type { ZxcvbnFactory } from '@zxcvbn-ts/core';

/** The 0–4 meter of spec point 5. */
export const meterLabels = ['risky', 'guessable', 'weak', 'safe', 'secure'] as const;
export type MeterLabel = (typeof meterLabels)[number];
export type MeterScore = 0 | 1 | 2 | 3 | 4;

let factory: Promise<ZxcvbnFactory> | null = null;

/** zxcvbn with the common and English dictionaries (about 1.5 MB, so it loads on first use). */
function loadFactory(): Promise<ZxcvbnFactory> {
  factory ??= Promise.all([
    import('@zxcvbn-ts/core'),
    import('@zxcvbn-ts/language-common'),
    import('@zxcvbn-ts/language-en'),
  ]).then(
    ([core, common, en]) =>
      new core.ZxcvbnFactory({
        translations: en.translations,
        graphs: common.adjacencyGraphs,
        dictionary: { ...common.dictionary, ...en.dictionary },
      }),
  );
  return factory;
}

export interface MeterResult {
  score: MeterScore;
  label: MeterLabel;
  warning: string;
  suggestions: string[];
}

/** Scores a password 0–4; common passwords score 0. `userInputs` (email, username) count as guessable. */
export async function meter(password: string, userInputs: string[] = []): Promise<MeterResult> {
  const zxcvbn = await loadFactory();
  const result = zxcvbn.check(password, userInputs.filter(Boolean));
  return {
    score: result.score,
    label: meterLabels[result.score],
    warning: result.feedback.warning ?? '',
    suggestions: result.feedback.suggestions,
  };
}
