/**
 * A card's answer block with every setting moved from the committed card's (`RECIPE_ANSWER`), shared by the
 * tests that show the server's answer and the phone's engine follow the card: a field counts each leaf
 * fully (temper 1), any confident answer is "close" (margin 0.99), a rust share of 0.2 % or more is severe, a
 * leaf whose rust class share reaches 0.5 counts as rust seen, and every leaf found is measured and ringed
 * however unclearly (leaf confidence 0).
 */
import type { AnswerSettings } from '../src/card-settings.ts';

export const CHANGED_ANSWER = {
  fieldTemper: 1,
  closeMargin: 0.99,
  severityCuts: { moderate: 0.001, severe: 0.002 },
  rustSeen: 0.5,
  leafConfidence: 0,
} as const satisfies AnswerSettings;
