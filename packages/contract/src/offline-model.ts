import { z } from 'zod';
import { adviceItem, educationalResource } from './analysis.ts';
import { answerSettings } from './answer-settings.ts';
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
  unsure_cuts: z
    .record(z.string(), z.number())
    .optional()
    .describe(
      "By crop, the unsure cut learnt from verified field photos that replaces thresholds.unsureBelow for that crop's photos (docs/decisions/0119); a crop not named keeps the card's",
    ),
  answer: answerSettings,
  resources: z
    .record(z.enum(resourceTopics), z.array(educationalResource))
    .describe('The education resources a result shows, by class or topic, to read offline'),
  advice: z.array(adviceItem).describe('The advice by result topic and crop, to read offline'),
});
export type OfflineModelInfo = z.infer<typeof offlineModelInfo>;
