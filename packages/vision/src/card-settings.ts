/**
 * The one reader of a model card's settings (docs/decisions/0073-answer-settings-on-the-card): the
 * classifier's cuts (`thresholds`) and the answer's settings (`answer`), read the same way by the server
 * (classify, field answer, second-photo ask, severity bands) and by the phone's offline engine (from the
 * card's copy in the offline model info). Pure TypeScript: safe for the browser bundle.
 */
import { type ModelCard, type Thresholds, thresholdsOf } from './decide.ts';
import { LEAF_CONFIDENCE } from './leaf-mask.ts';

/** How the field's leaves add up: the temper on their summed log shares, or `'mean'` (the rule before). */
export type FieldRule = number | 'mean';

/**
 * When one leaf counts as "rust seen" (decision 0061-rust-on-any-leaf): `'confident'` when its own answer,
 * judged alone by the card's cuts, is a confident rust answer; a number: when its rust share reaches that cut
 * (at most the card's), its leaf and ood scores passing as for a confident answer; `'off'`: never.
 */
export type RustSeenRule = 'confident' | 'off' | number;

/** Cut points on the rust-coloured share of the leaf: below `moderate` is low, from `severe` up is severe. */
export interface SeverityCuts {
  moderate: number;
  severe: number;
}

/** How the answer is made from the model's outputs: the card's `answer` block. */
export interface AnswerSettings {
  /**
   * How much each extra leaf of a field counts: the leaves' log class shares are summed and the sum
   * multiplied by this before normalising (1: independent witnesses; leaves of one field are alike).
   */
  fieldTemper: FieldRule;
  /** A confident answer still asks for another leaf when its class leads the runner-up by less than this. */
  closeMargin: number;
  /** The severity bands' cut points on the rust-coloured share of the leaf (decision 0045). */
  severityCuts: SeverityCuts;
  /** When one leaf alone counts as rust seen, so the field is never a sure "healthy" (decision 0061). */
  rustSeen: RustSeenRule;
  /**
   * Rings and a rust share only where the leaf was found at least this clearly (`LeafMask.confidence`, 0..1);
   * below it the share is "could not be measured" and nothing is ringed (decision 0081).
   */
  leafConfidence: number;
}

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

const isShare = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= 1;

/** Each key of the block: where it is read from and whether a value is allowed (what a valid value is). */
const CHECKS: {
  key: string;
  read: (a: Record<string, unknown>) => unknown;
  ok: (v: unknown) => boolean;
  is: string;
}[] = [
  {
    key: 'fieldTemper',
    read: (a) => a.fieldTemper,
    ok: (v) => v === 'mean' || (typeof v === 'number' && v > 0 && v <= 1),
    is: 'a number in (0, 1] or "mean"',
  },
  { key: 'closeMargin', read: (a) => a.closeMargin, ok: isShare, is: 'a number in [0, 1]' },
  {
    key: 'severityCuts.moderate',
    read: (a) => (a.severityCuts as Record<string, unknown> | undefined)?.moderate,
    ok: isShare,
    is: 'a number in [0, 1]',
  },
  {
    key: 'severityCuts.severe',
    read: (a) => (a.severityCuts as Record<string, unknown> | undefined)?.severe,
    ok: isShare,
    is: 'a number in [0, 1]',
  },
  { key: 'leafConfidence', read: (a) => a.leafConfidence, ok: isShare, is: 'a number in [0, 1]' },
  {
    key: 'rustSeen',
    read: (a) => a.rustSeen,
    ok: (v) => v === 'confident' || v === 'off' || (typeof v === 'number' && v > 0 && v <= 1),
    is: '"confident", "off" or a number in (0, 1]',
  },
];

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
  const missing = CHECKS.filter((c) => c.read(block) === undefined).map((c) => `answer.${c.key}`);
  if (missing.length) {
    throw new Error(
      `model.json${of} gives no ${missing.join(', ')}: a card's answer block holds every answer setting (see MODEL_CARD.md)`,
    );
  }
  const bad = CHECKS.find((c) => !c.ok(c.read(block)));
  if (bad)
    throw new Error(`model.json${of}: answer.${bad.key} must be ${bad.is}, not ${JSON.stringify(bad.read(block))}`);
  const cuts = block.severityCuts as SeverityCuts;
  if (cuts.moderate >= cuts.severe) {
    throw new Error(`model.json${of}: answer.severityCuts.moderate must be below answer.severityCuts.severe`);
  }
  return {
    fieldTemper: block.fieldTemper as FieldRule,
    closeMargin: block.closeMargin as number,
    severityCuts: { moderate: cuts.moderate, severe: cuts.severe },
    rustSeen: block.rustSeen as RustSeenRule,
    leafConfidence: block.leafConfidence as number,
  };
}

/**
 * Everything a card sets for an answer: its cuts (`thresholdsOf`: every one required, null meaning off) and its
 * answer settings (`answerOf`). The server reads its model.json through this; the phone its stored copy.
 */
export function cardSettings(card: CardLike): CardSettings {
  return { version: card.version ?? '', thresholds: thresholdsOf(card), answer: answerOf(card) };
}
