/**
 * The one reader of a model card's settings (docs/decisions/0073-answer-settings-on-the-card): the
 * classifier's cuts (`thresholds`) and the answer's settings (`answer`), read the same way by the server
 * (classify, field answer, second-photo ask, severity bands) and by the phone's offline engine (from the
 * card's copy in the offline model info). Pure TypeScript: safe for the browser bundle.
 */
import { type AnswerSettings, answerSettings } from '@kutu/contract/answer-settings';
import { type ModelCard, type Thresholds, thresholdsOf } from './decide.ts';
import { LEAF_CONFIDENCE } from './leaf-mask.ts';

export type { AnswerSettings, FieldRule, RustSeenRule, SeverityCuts } from '@kutu/contract/answer-settings';

/**
 * The values the answer was made with before they moved onto the card, measured in
 * packages/vision/research/fieldcombine (temper, rust seen; RESULTS.md), decisions 0040 (close margin) and
 * 0045 (severity cuts). A card with no `answer` block (an in-app retrained version, or a phone's stored copy,
 * from before the block) was served with exactly these, so it still is; training writes them on a card made
 * from scratch. A card whose block lacks a key is refused (`answerOf`).
 */
export const RECIPE_ANSWER: AnswerSettings = {
  fieldTemper: 0.6,
  closeMargin: 0.4,
  severityCuts: { moderate: 0.05, severe: 0.2 },
  rustSeen: 'confident',
  leafConfidence: LEAF_CONFIDENCE,
};

/**
 * Settings added to the block after cards carried it: a block written before one was served with the recipe's
 * value (a retrained card copied from an older parent, a phone's stored copy until its next online start), so it
 * still is. Any other missing key is refused.
 */
const ADDED_LATER: readonly (keyof AnswerSettings)[] = ['leafConfidence'];

/** A card's settings, as the server and the phone use them. */
export interface CardSettings {
  version: string;
  thresholds: Thresholds;
  answer: AnswerSettings;
}

type CardLike = Pick<ModelCard, 'thresholds'> & { version?: string; answer?: unknown };

/**
 * The answer settings a card gives. No block: the recipe's values (`RECIPE_ANSWER`, what every card before the
 * block was served with). A block that lacks a key or gives a bad value throws, naming it: a half-written block
 * is a mistake, not a request for defaults.
 */
export function answerOf(card: CardLike): AnswerSettings {
  if (card.answer === undefined || card.answer === null) return RECIPE_ANSWER;
  const of = card.version ? ` of ${card.version}` : '';
  if (typeof card.answer !== 'object') throw new Error(`model.json${of}: answer must be an object`);
  const given = card.answer as Record<string, unknown>;
  const block = Object.fromEntries([
    ...ADDED_LATER.map((key) => [key, RECIPE_ANSWER[key]]),
    ...Object.entries(given).filter(([, v]) => v !== undefined),
  ]);
  const checked = answerSettings.safeParse(block);
  if (checked.success) return checked.data;
  const valueAt = (at: PropertyKey[]) =>
    at.reduce<unknown>((v, key) => (v as Record<PropertyKey, unknown> | undefined)?.[key], block);
  const missing = checked.error.issues.filter((issue) => valueAt(issue.path) === undefined);
  if (missing.length) {
    const names = missing.map((issue) => `answer.${issue.path.join('.')}`).join(', ');
    throw new Error(
      `model.json${of} gives no ${names}: a card's answer block holds every answer setting (see MODEL_CARD.md)`,
    );
  }
  const [bad] = checked.error.issues;
  const value = JSON.stringify(valueAt(bad.path));
  throw new Error(`model.json${of}: answer.${bad.path.join('.')} must be ${bad.message}, not ${value}`);
}

/**
 * Everything a card sets for an answer: its cuts (`thresholdsOf`: every one required, null meaning off) and its
 * answer settings (`answerOf`). The server reads its model.json through this; the phone its stored copy.
 */
export function cardSettings(card: CardLike): CardSettings {
  return { version: card.version ?? '', thresholds: thresholdsOf(card), answer: answerOf(card) };
}
