// A field's state from a scouting walk, and the next step it calls for (docs/decisions/0078). Without
// zod, so the phone works it out offline with the same rules the server uses.

import { FIELD_RULE_SOURCES, type RuleSource } from './field-rule-sources.ts';
import { type ShareInterval, wilsonInterval, Z95 } from './stats.ts';

export { FIELD_RULE_SOURCES, type RuleSource } from './field-rule-sources.ts';

import {
  type FieldAction,
  type FieldCrop,
  type FieldStep,
  type GrowthStage,
  growthStages,
  type WalkComparison,
  WALK_MAX_PLANTS_PER_STOP,
  WALK_MAX_STOPS,
} from './field-basics.ts';

export {
  type FieldAction,
  fieldActions,
  type FieldCrop,
  type FieldStep,
  fieldSteps,
  type WalkComparison,
  walkComparisons,
  fieldCrops,
  type GrowthStage,
  growthStages,
  WALK_MAX_PLANTS,
  WALK_MAX_PLANTS_PER_STOP,
  WALK_MAX_STOPS,
  WALK_PLANTS_PER_STOP,
  WALK_STOPS,
} from './field-basics.ts';

/**
 * Weeks after planting at which each stage starts, for the mid-altitude varieties grown in Uganda and
 * Kenya (maize of about four months, beans of about three): seedling from week 0, vegetative, flowering
 * (tasselling and silking in maize), grain filling (pods filling in beans), mature (dry). A variety that
 * is slower or faster moves a stage by a week or two; a farmer or an expert can say the stage instead.
 */
export const STAGE_STARTS_WEEKS: Record<Exclude<FieldCrop, 'other'>, Record<GrowthStage, number>> = {
  maize: { seedling: 0, vegetative: 3, flowering: 8, grain_filling: 11, mature: 16 },
  beans: { seedling: 0, vegetative: 2, flowering: 5, grain_filling: 7, mature: 10 },
};

const DAY_MS = 24 * 60 * 60 * 1000;

/** Whole weeks from planting to `at` (a date `YYYY-MM-DD` in the field's own calendar); null before planting. */
export function weeksSincePlanting(plantedOn: string, at: Date): number | null {
  const planted = Date.parse(`${plantedOn}T00:00:00Z`);
  if (Number.isNaN(planted)) return null;
  const days = Math.floor((at.getTime() - planted) / DAY_MS);
  return days < 0 ? null : Math.floor(days / 7);
}

/** The stage a crop is at so many weeks after planting; null for another crop (Kutu has no calendar for it). */
export function stageAt(crop: FieldCrop, weeks: number): GrowthStage | null {
  if (crop === 'other') return null;
  const starts = STAGE_STARTS_WEEKS[crop];
  let stage: GrowthStage = 'seedling';
  for (const s of growthStages) if (weeks >= starts[s]) stage = s;
  return stage;
}

export interface WalkCount {
  /** Plants looked at. */
  looked: number;
  /** Plants with rust on any leaf. */
  rust: number;
}

/** Share of plants with rust, 0..1, and its 95 % interval for that many plants (Wilson's score interval). */
export type Incidence = ShareInterval;

/** Share of plants with rust and its 95 % Wilson interval; null when no plant was looked at. */
export function incidenceOf({ looked, rust }: WalkCount): Incidence | null {
  return wilsonInterval(rust, looked);
}

/**
 * A walk counted in totals (a basic phone, a plant clinic's form) as the stops a walk is stored as: at most
 * WALK_MAX_PLANTS_PER_STOP plants a stop, the plants with rust in the first stops. Only the totals matter to
 * the advice and the comparison; these stops do not say where in the field the plants were.
 */
export function walkStopsOf({ looked, rust }: WalkCount): WalkCount[] {
  const stops: WalkCount[] = [];
  for (let left = looked, sick = rust; left > 0 && stops.length < WALK_MAX_STOPS; ) {
    const n = Math.min(left, WALK_MAX_PLANTS_PER_STOP);
    const r = Math.min(sick, n);
    stops.push({ looked: n, rust: r });
    left -= n;
    sick -= r;
  }
  return stops;
}

/** The counts of every stop added up. */
export function walkTotals(stops: readonly WalkCount[]): WalkCount {
  return stops.reduce((sum, s) => ({ looked: sum.looked + s.looked, rust: sum.rust + s.rust }), { looked: 0, rust: 0 });
}

/**
 * Two walks are "the same" when the 95 % interval of the change in incidence lies within this many
 * points either way; a wider interval that holds no clear change cannot tell.
 */
export const SAME_WITHIN = 0.2;

/**
 * The later walk against the earlier: `worse` or `better` when the 95 % interval of the change in
 * incidence (Newcombe's method from the two Wilson intervals) lies wholly above or below zero; `same` when
 * it lies within ±SAME_WITHIN; otherwise the counts were too few to tell.
 */
export function compareWalks(before: WalkCount, after: WalkCount): WalkComparison {
  const a = incidenceOf(before);
  const b = incidenceOf(after);
  if (!a || !b) return 'too_few_plants';
  const diff = b.share - a.share;
  const low = diff - Math.sqrt((b.share - b.low) ** 2 + (a.high - a.share) ** 2);
  const high = diff + Math.sqrt((b.high - b.share) ** 2 + (a.share - a.low) ** 2);
  if (low > 0) return 'worse';
  if (high < 0) return 'better';
  if (low >= -SAME_WITHIN && high <= SAME_WITHIN) return 'same';
  return 'too_few_plants';
}

/**
 * The version of the rules below: stored with every walk's advice, so an answer can always be read as it
 * was given. Change it with any change to a rule or a threshold, and say why in decision 0078's record.
 */
export const FIELD_RULES_VERSION = '2026-11-29';

/** A rule: when it applies, what it says, and what it rests on. */
export interface FieldRule {
  id: string;
  crop: FieldCrop;
  action: FieldAction;
  steps: readonly FieldStep[];
  /** Days until Kutu asks for the next walk; null when another walk this season changes nothing. */
  walkAgainDays: number | null;
  sources: readonly (keyof typeof FIELD_RULE_SOURCES)[];
}

/**
 * Beans: rust found on at most this share of plants before the pods fill is picked off; more is sprayed.
 * Maize: from this share of plants with rust before grain filling, a fungicide can pay on a susceptible
 * variety; below it, rust on field maize rarely costs enough yield to pay for a spray.
 */
export const BEANS_SPRAY_FROM = 0.1;
export const MAIZE_SPRAY_FROM = 0.25;
/**
 * A full walk: FAMEWS's five stops of ten plants. Fewer and the next walk should count more. A spray is
 * advised only when the lower end of the incidence's 95 % interval reaches the crop's threshold, at any
 * number of plants (docs/decisions/0117, 0135).
 */
export const WALK_ENOUGH_PLANTS = 50;
/**
 * A walk of fewer plants than one stop is read, for a spray, as a stop of ten whose plants not looked at
 * were healthy: Wilson's interval assumes plants drawn one by one at random, and rust comes in hot spots
 * (NDSU), so 1 rusty plant of 1 bears no spray. Reading the missing plants as healthy, not refusing short
 * walks, keeps the rule monotone: one more healthy plant never turns "count first" into "spray now".
 */
export const INTERVAL_FROM_PLANTS = 10;
/**
 * The stages from which no spray is advised: maize from grain filling (Auburn: "once corn reaches soft
 * dough, further fungicide treatments are not needed", and grain filling starts before soft dough); beans
 * from pod filling (NDSU: at R7, when pods reach full size and seeds colour, "there is no benefit to
 * managing rust", and a spray's protection lasts about two weeks, so one at pod filling protects past R7).
 */
export const NO_SPRAY_FROM: Record<Exclude<FieldCrop, 'other'>, GrowthStage> = {
  maize: 'grain_filling',
  beans: 'grain_filling',
};

const rule = (r: FieldRule) => r;
export const FIELD_RULES = {
  none: rule({
    id: 'none',
    crop: 'other',
    action: 'walk_again',
    steps: ['walk_again'],
    walkAgainDays: 7,
    sources: ['famews'],
  }),
  otherRust: rule({
    id: 'other.rust',
    crop: 'other',
    action: 'ask_expert',
    steps: ['ask_expert', 'walk_again'],
    walkAgainDays: 7,
    sources: ['famews'],
  }),
  beansLow: rule({
    id: 'beans.low',
    crop: 'beans',
    action: 'remove_leaves',
    steps: ['remove_leaves', 'walk_again'],
    walkAgainDays: 7,
    sources: ['beansInfonet', 'beansPacific'],
  }),
  beansSpray: rule({
    id: 'beans.spray',
    crop: 'beans',
    action: 'spray_now',
    steps: ['spray_beans', 'remove_leaves', 'walk_again'],
    walkAgainDays: 7,
    sources: ['beansPacific', 'beansNdsu', 'famews'],
  }),
  beansCount: rule({
    id: 'beans.count',
    crop: 'beans',
    action: 'remove_leaves',
    steps: ['count_before_spray', 'remove_leaves', 'walk_again'],
    walkAgainDays: 7,
    sources: ['famews', 'beansInfonet', 'beansPacific'],
  }),
  beansNear: rule({
    id: 'beans.near',
    crop: 'beans',
    action: 'remove_leaves',
    steps: ['spray_not_yet', 'remove_leaves', 'walk_again'],
    walkAgainDays: 7,
    sources: ['famews', 'beansInfonet', 'beansPacific'],
  }),
  beansLate: rule({
    id: 'beans.late',
    crop: 'beans',
    action: 'resistant_next_season',
    steps: ['no_spray_late', 'resistant_variety', 'rotate_and_clean'],
    walkAgainDays: null,
    sources: ['beansNdsuLate', 'beansInfonet', 'beansPacific'],
  }),
  maizeWatch: rule({
    id: 'maize.watch',
    crop: 'maize',
    action: 'walk_again',
    steps: ['walk_again_soon', 'resistant_variety'],
    walkAgainDays: 7,
    sources: ['maizeUmn', 'maizePurdue', 'maizePacific'],
  }),
  maizeSpray: rule({
    id: 'maize.spray',
    crop: 'maize',
    action: 'spray_now',
    steps: ['spray_maize', 'walk_again'],
    walkAgainDays: 7,
    sources: ['maizeUmn', 'maizePurdue', 'maizeAuburn', 'famews'],
  }),
  maizeCount: rule({
    id: 'maize.count',
    crop: 'maize',
    action: 'walk_again',
    steps: ['count_before_spray', 'walk_again_soon'],
    walkAgainDays: 7,
    sources: ['famews', 'maizeUmn', 'maizePurdue'],
  }),
  maizeNear: rule({
    id: 'maize.near',
    crop: 'maize',
    action: 'walk_again',
    steps: ['spray_not_yet', 'walk_again_soon'],
    walkAgainDays: 7,
    sources: ['famews', 'maizeUmn', 'maizePurdue'],
  }),
  maizeLate: rule({
    id: 'maize.late',
    crop: 'maize',
    action: 'resistant_next_season',
    steps: ['no_spray_late', 'resistant_variety', 'rotate_and_clean'],
    walkAgainDays: null,
    sources: ['maizeCornell', 'maizeAuburn', 'maizePacific'],
  }),
} as const;

/** What an answer rests on: the counts, the crop and its age. */
export interface FieldFacts extends WalkCount {
  crop: FieldCrop;
  /** Weeks since planting; null when the planting date is not known. */
  weeks: number | null;
  /** The stage said by the farmer or an expert at the walk, which wins over the calendar. */
  stageSaid?: GrowthStage | null;
}

export interface FieldAdvice {
  rule: string;
  version: string;
  action: FieldAction;
  steps: FieldStep[];
  walkAgainDays: number | null;
  stage: GrowthStage | null;
  incidence: Incidence | null;
  sources: RuleSource[];
}

/** Everything the advice depends on, so a test can tie FIELD_RULES_VERSION to it. */
export const FIELD_RULES_DATA = {
  FIELD_RULES,
  FIELD_RULE_SOURCES,
  STAGE_STARTS_WEEKS,
  NO_SPRAY_FROM,
  BEANS_SPRAY_FROM,
  MAIZE_SPRAY_FROM,
  WALK_ENOUGH_PLANTS,
  INTERVAL_FROM_PLANTS,
  Z95,
} as const;

const stageOf = (facts: FieldFacts): GrowthStage | null =>
  facts.stageSaid ?? (facts.weeks === null ? null : stageAt(facts.crop, facts.weeks));

const isLate = (crop: 'maize' | 'beans', stage: GrowthStage): boolean =>
  growthStages.indexOf(stage) >= growthStages.indexOf(NO_SPRAY_FROM[crop]);

/**
 * Whether the counts bear a spray: the lower end of the incidence's 95 % Wilson interval reaches the
 * crop's threshold, a walk of fewer than INTERVAL_FROM_PLANTS read as that many with the rest healthy.
 * The lower end falls with every healthy plant added and rises with every plant with rust, so the answer
 * is monotone both ways and the same at every number of plants (docs/decisions/0135).
 */
export function sprayShown({ looked, rust }: WalkCount, from: number): boolean {
  const read = wilsonInterval(rust, Math.max(looked, INTERVAL_FROM_PLANTS));
  return read !== null && read.low >= from;
}

/**
 * The rule a walk's counts call for, by crop, growth stage and incidence. A spray only when the counts
 * bear it (`sprayShown`). Below that, a share under the threshold keeps to picking leaves (beans) or
 * watching (maize); a share at or over it that the interval cannot show asks first for a full walk, or,
 * after one, says not to spray yet and to walk again: counting more plants the same day seldom settles a
 * share near the threshold, and the next walk shows whether rust spreads.
 */
export function fieldRuleFor(facts: FieldFacts): FieldRule {
  const stage = stageOf(facts);
  if (facts.rust === 0) return FIELD_RULES.none;
  if (facts.crop === 'other') return FIELD_RULES.otherRust;
  if (stage && isLate(facts.crop, stage)) return facts.crop === 'maize' ? FIELD_RULES.maizeLate : FIELD_RULES.beansLate;
  const beans = facts.crop === 'beans';
  const from = beans ? BEANS_SPRAY_FROM : MAIZE_SPRAY_FROM;
  if (sprayShown(facts, from)) return beans ? FIELD_RULES.beansSpray : FIELD_RULES.maizeSpray;
  const incidence = incidenceOf(facts);
  if (!incidence || incidence.share < from) return beans ? FIELD_RULES.beansLow : FIELD_RULES.maizeWatch;
  if (facts.looked >= WALK_ENOUGH_PLANTS) return beans ? FIELD_RULES.beansNear : FIELD_RULES.maizeNear;
  return beans ? FIELD_RULES.beansCount : FIELD_RULES.maizeCount;
}

/**
 * The advice of a walk: its rule's steps, with "count more plants" when the walk counted too few, and "add
 * the planting date" when Kutu could not tell the stage (a stage changes what a spray is worth).
 */
export function adviseField(facts: FieldFacts): FieldAdvice {
  const r = fieldRuleFor(facts);
  const stage = stageOf(facts);
  const steps: FieldStep[] = [...r.steps];
  if (facts.looked < WALK_ENOUGH_PLANTS && !steps.includes('count_before_spray')) steps.push('count_more_plants');
  if (!stage && facts.crop !== 'other' && facts.rust > 0) steps.push('add_planting_date');
  return {
    rule: r.id,
    version: FIELD_RULES_VERSION,
    action: r.action,
    steps,
    walkAgainDays: r.walkAgainDays,
    stage,
    incidence: incidenceOf(facts),
    sources: r.sources.map((s) => FIELD_RULE_SOURCES[s]),
  };
}
