/**
 * The words and bounds of fields and walks that forms and schemas need (the crops, the growth stages, a walk's
 * size), apart from the field advice's rules (field-rules.ts): a sign-up or clinic screen that validates a
 * stage downloads these, not the rules and their sources.
 */
import { analysisCrops } from './enums.ts';

/** The crops a field can hold: the two Kutu advises on, and any other (the analyses' crops). */
export const fieldCrops = analysisCrops;
export type FieldCrop = (typeof fieldCrops)[number];

/** The growth stages of the crop (the plant clinic's words too). */
export const growthStages = ['seedling', 'vegetative', 'flowering', 'grain_filling', 'mature'] as const;
export type GrowthStage = (typeof growthStages)[number];

/** A scouting walk after FAO's FAMEWS: stops across the field in a W, so many plants looked at each. */
export const WALK_STOPS = 5;
export const WALK_PLANTS_PER_STOP = 10;
/** A walk counts at most this many stops, and a stop at most this many plants (a typing slip, not a field). */
export const WALK_MAX_STOPS = 10;
export const WALK_MAX_PLANTS_PER_STOP = 100;
/** The most plants one walk counts (every stop full). */
export const WALK_MAX_PLANTS = WALK_MAX_STOPS * WALK_MAX_PLANTS_PER_STOP;

/** What the next walk of a field found, against the one before. */
export const walkComparisons = ['better', 'same', 'worse', 'too_few_plants'] as const;
export type WalkComparison = (typeof walkComparisons)[number];

/** What the farmer should do next, most important first (each a text in the catalogues). */
export const fieldSteps = [
  'walk_again',
  'walk_again_soon',
  'count_more_plants',
  'count_before_spray',
  'spray_not_yet',
  'add_planting_date',
  'remove_leaves',
  'spray_beans',
  'spray_maize',
  'no_spray_late',
  'resistant_variety',
  'rotate_and_clean',
  'ask_expert',
] as const;
export type FieldStep = (typeof fieldSteps)[number];

/** The main next step of an answer: what the farmer is told first. */
export const fieldActions = [
  'walk_again',
  'remove_leaves',
  'spray_now',
  'resistant_next_season',
  'ask_expert',
] as const;
export type FieldAction = (typeof fieldActions)[number];
