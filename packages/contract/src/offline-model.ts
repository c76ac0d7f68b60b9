import { z } from 'zod';
import { adviceItem, educationalResource } from './analysis.ts';
import { resourceTopics } from './enums.ts';

export { offlineModelApi } from './paths.ts';

export const offlineModelVersionParam = z.object({
  version: z.string().regex(/^[A-Za-z0-9._-]{1,100}$/, 'Unknown model version'),
});

export const offlineModelInfo = z.object({
  version: z.string().describe('The model version the server diagnoses with now'),
  file_url: z.string().describe('Where to download the model file (changes with the version)'),
  bytes: z.number().int().describe('Size of the model file'),
  sha256: z.string().describe('Hex SHA-256 of the model file, to check the download'),
  quantised: z
    .boolean()
    .describe('The file is the 8-bit copy that agreed with the server on ≥ 99 % of the evaluation photos'),
  input_size: z.number().int(),
  classes: z.array(z.string()).describe("The model's outputs in order (the last is not_leaf)"),
  thresholds: z
    .record(z.string(), z.number().nullable())
    .describe('The rules for unsure and not-a-leaf answers; null: off'),
  answer: z
    .object({
      fieldTemper: z.union([z.number(), z.literal('mean')]).describe('How much each extra leaf of a field counts'),
      closeMargin: z.number().describe('A confident answer leading the runner-up by less than this asks for a leaf'),
      severityCuts: z
        .object({ moderate: z.number(), severe: z.number() })
        .describe('The severity bands: low below moderate, severe from severe up'),
      rustSeen: z
        .union([z.enum(['confident', 'off']), z.number()])
        .describe('When one leaf alone counts as rust seen on the field'),
      leafConfidence: z
        .number()
        .describe('Rings and a rust share only where the leaf was found at least this clearly (0..1)'),
    })
    .describe("How the answer is made from the model's outputs: the model card's answer settings"),
  resources: z
    .record(z.enum(resourceTopics), z.array(educationalResource))
    .describe('The education resources a result shows, by class or topic, to read offline'),
  advice: z.array(adviceItem).describe('The advice by result topic and crop, to read offline'),
});
export type OfflineModelInfo = z.infer<typeof offlineModelInfo>;
