import type { ZxcvbnFactory } from '@zxcvbn-ts/core';

/** The 0–4 meter of spec point 5. */
export const meterLabels = ['risky', 'guessable', 'weak', 'safe', 'secure'] as const;
export type MeterLabel = (typeof meterLabels)[number];
export type MeterScore = 0 | 1 | 2 | 3 | 4;

let factory: Promise<ZxcvbnFactory> | null = null;

/** Loaded when the user first types a password: the sign-in and sign-up forms appear without it. */
function loadFactory(): Promise<ZxcvbnFactory> {
  factory ??= import('./zxcvbn.ts').then((m) => m.zxcvbn);
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
