/**
 * The shape of a model card's answer settings, written once (docs/decisions/0073-answer-settings-on-the-card):
 * the vision package's reader (`answerOf`) checks a card's block with it and takes its type from it, and the
 * offline model info serves it to the phone. Each error names what a valid value is, as `answerOf` says it.
 */
import { z } from 'zod';

const share = (what: string) =>
  z
    .number({ error: 'a number in [0, 1]' })
    .min(0, { error: 'a number in [0, 1]' })
    .max(1, { error: 'a number in [0, 1]' })
    .describe(what);

const inOpenUnit = (error: string) => z.number({ error }).gt(0, { error }).lte(1, { error });

export const fieldRule = z
  .union([inOpenUnit('a number in (0, 1] or "mean"'), z.literal('mean')], { error: 'a number in (0, 1] or "mean"' })
  .describe(
    "How much each extra leaf of a field counts: the leaves' log class shares are summed and the sum multiplied by this before normalising (1: independent witnesses); 'mean': the rule before",
  );

export const rustSeenRule = z
  .union([z.enum(['confident', 'off']), inOpenUnit('"confident", "off" or a number in (0, 1]')], {
    error: '"confident", "off" or a number in (0, 1]',
  })
  .describe(
    "When one leaf alone counts as rust seen on the field (decision 0061): 'confident' when its own answer is a confident rust answer; a number: when its rust share reaches that cut; 'off': never",
  );

export const severityCuts = z
  .object({
    moderate: share('Below this rust-coloured share of the leaf the band is low'),
    severe: share('From this share up the band is severe'),
  })
  .refine((cuts) => cuts.moderate < cuts.severe, { error: 'below answer.severityCuts.severe', path: ['moderate'] })
  .describe("The severity bands' cut points on the rust-coloured share of the leaf (decision 0045)");

export const answerSettings = z
  .object({
    fieldTemper: fieldRule,
    closeMargin: share('A confident answer still asks for another leaf when its class leads the runner-up by less'),
    severityCuts,
    rustSeen: rustSeenRule,
    leafConfidence: share(
      'Rings and a rust share only where the leaf was found at least this clearly (0..1); below it the share is "could not be measured" (decision 0081)',
    ),
  })
  .describe("How the answer is made from the model's outputs: the model card's answer settings");

export type AnswerSettings = z.infer<typeof answerSettings>;
export type FieldRule = z.infer<typeof fieldRule>;
export type RustSeenRule = z.infer<typeof rustSeenRule>;
export type SeverityCuts = z.infer<typeof severityCuts>;
