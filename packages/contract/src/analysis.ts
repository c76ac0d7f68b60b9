import { z } from 'zod';
import { idParam, isoDateTime, paginated, pageQuery, rowId, numberText } from './common.ts';
import {
  analysisCrops,
  rustClasses,
  resourceTopics,
  contentLanguages,
  reviewVerdicts,
  severityBands,
} from './enums.ts';

export { analysisApi, IDEMPOTENCY_KEY_HEADER } from './paths.ts';

export const idempotencyKey = z
  .string()
  .regex(/^[A-Za-z0-9_-]{16,128}$/, 'Idempotency-Key must be 16 to 128 letters, digits, "-" or "_" (a UUID is fine)');

export const analysisOutcomes = ['diagnosis', 'not_leaf'] as const;
export const analysisOutcome = z.enum(analysisOutcomes);
export type AnalysisOutcome = z.infer<typeof analysisOutcome>;

export const rustClass = z.enum(rustClasses);

export const analysisCrop = z.enum(analysisCrops, { error: 'crop must be maize, beans or other' });
export type AnalysisCrop = z.infer<typeof analysisCrop>;

/** The text fields of the upload (the photo travels beside them). */
export const analysisUploadFields = z.object({
  crop: z.preprocess((v) => (v === '' ? undefined : v), analysisCrop.optional()),
  /** The field the photo is of (one of the caller's); left out, the farmer's field of that crop (0078). */
  field_id: z.preprocess((v) => (v === '' ? undefined : v), rowId('field_id', 'Choose one of your fields').optional()),
  follow_up_of: z.preprocess(
    (v) => (v === '' ? undefined : v),
    numberText(
      z
        .number({ error: 'follow_up_of must be the id of one of your diagnoses' })
        .int('follow_up_of must be the id of one of your diagnoses')
        .positive('follow_up_of must be the id of one of your diagnoses')
        // Ids are int4 in the database: a larger number is no one's diagnosis, and would fail the query.
        .max(2_147_483_647, 'follow_up_of must be the id of one of your diagnoses')
        .optional(),
    ),
  ),
});

/**
 * A diagnosis whose reminder is open (advice to treat, no follow-up photo sent for it yet): the farmer may
 * say a new photo is of the same field (`follow_up_of`), the only way a photo becomes a follow-up.
 */
export const openFollowUp = z.object({
  analysis_id: z.number().int().describe('The diagnosis a new photo may follow up'),
  crop: analysisCrop.nullable().describe('Its crop: a follow-up photo must be of the same crop'),
  analysed_at: isoDateTime.describe('When the diagnosis was made'),
  remind_at: isoDateTime.nullable().describe('When Kutu will ask for the new photo; null once the reminder was sent'),
  field_id: z.number().int().optional().describe('The field it is about: a follow-up photo goes to the same field'),
  field_name: z.string().optional().describe('That field’s name'),
});
export type OpenFollowUp = z.infer<typeof openFollowUp>;
export const openFollowUpList = z.object({ results: z.array(openFollowUp) });
export type OpenFollowUpList = z.infer<typeof openFollowUpList>;

/** What comparing a follow-up photo with the first diagnosis found (docs/decisions/0044). */
export const followUpOutcomes = ['better', 'less', 'worse', 'unclear'] as const;
export type FollowUpOutcome = (typeof followUpOutcomes)[number];

export const followUpInfo = z.object({
  of: z.number().int().describe('The earlier diagnosis (advice: treat) this photo followed up'),
  of_rust_class: z.enum(rustClasses).nullable().describe("The earlier diagnosis's class"),
  of_confidence: z.number().min(0).max(1).describe("The earlier diagnosis's share for its class"),
  of_severity: z
    .number()
    .min(0)
    .max(1)
    .nullable()
    .describe(
      "The earlier diagnosis's rust-coloured share of the leaf (docs/decisions/0045), null when it has none. Shown only: the comparison is made on the class (docs/decisions/0078)",
    ),
  outcome: z
    .enum(followUpOutcomes)
    .describe(
      '`better`: no rust now; `less`: rust still seen, weaker; `worse`: rust as strong or stronger (sent to the experts); `unclear`: Kutu is not sure now',
    ),
  sent_to_expert: z.boolean().describe('The photo went straight to the expert queue'),
});
export type FollowUpInfo = z.infer<typeof followUpInfo>;

export const resourceTopic = z.enum(resourceTopics);
export type ResourceTopic = z.infer<typeof resourceTopic>;

export const contentLanguage = z.enum(contentLanguages);
export type ContentLanguage = z.infer<typeof contentLanguage>;

/** A link shown with a result (spec point 3: title, url, description). */
export const educationalResource = z.object({
  title: z.string().describe("In the reader's language (the account's, else Accept-Language), else English"),
  url: z.string(),
  description: z.string().describe("In the reader's language (the account's, else Accept-Language), else English"),
  link_language: contentLanguage.describe('The language the linked page is written in'),
});
export type EducationalResource = z.infer<typeof educationalResource>;

/** What advice is about: a class, a result the model is not sure of, or a photo without a leaf. */
export const adviceTopics = [...rustClasses, 'unsure', 'not_leaf'] as const;
export const adviceTopic = z.enum(adviceTopics);
export type AdviceTopic = z.infer<typeof adviceTopic>;

/** Advice is written per crop; `general` is the fallback for other or unnamed crops. */
export const adviceCrops = ['maize', 'beans', 'general'] as const;
export const adviceCrop = z.enum(adviceCrops);
export type AdviceCrop = z.infer<typeof adviceCrop>;

export const adviceSource = z.object({ title: z.string(), url: z.string() });

/** A text the web app writes in the reader's language: a key of its catalogue and the key's values (result-text.ts). */
export const textRef = z.object({
  key: z.string().describe("A key of the web app's catalogue (apps/web/src/lib/locales/<language>.json)"),
  values: z
    .record(z.string(), z.union([z.string(), z.object({ key: z.string() })]))
    .optional()
    .describe('Values to fill in; an object is itself a key of the catalogue'),
});

/** What the farmer should know and do about a result. */
export const analysisFeedback = z.object({
  finding: textRef.describe('One line: what was found'),
  explanation: textRef.describe('What the result means and how sure it is'),
  headline: z.string().describe('The advice in one short line'),
  advice: z.array(z.string()).describe('Three to five steps for this week, most urgent first'),
  more: z.array(z.string()).describe('The rest of the advice ("See more")'),
  advice_crop: adviceCrop.describe("Which crop's advice this is (`general` when there is none for the crop)"),
  sources: z.array(adviceSource).describe('Where the advice comes from'),
});
export type AnalysisFeedback = z.infer<typeof analysisFeedback>;

/** One advice entry as experts edit it. */
export const adviceItem = z.object({
  id: z.number().int(),
  topic: adviceTopic,
  crop: adviceCrop,
  language: contentLanguage.describe(
    "The language of this entry's text: the reader's language (the account's, else Accept-Language), or English where no translation exists",
  ),
  headline: z.string(),
  steps: z.array(z.string()),
  more: z.array(z.string()),
  sources: z.array(adviceSource),
  updated_at: isoDateTime,
});
export type AdviceItem = z.infer<typeof adviceItem>;
export const adviceList = z.object({ results: z.array(adviceItem) });
export type AdviceList = z.infer<typeof adviceList>;

const adviceLine = z
  .string()
  .trim()
  .min(3, 'Each step must be at least 3 characters')
  .max(400, 'Each step must be at most 400 characters');

export const adviceInput = z.object({
  headline: z
    .string({ error: 'Headline is required' })
    .trim()
    .min(3, 'Headline must be at least 3 characters')
    .max(140, 'Headline must be at most 140 characters'),
  steps: z
    .array(adviceLine)
    .min(3, 'Write at least 3 steps')
    .max(5, 'Write at most 5 steps: the rest goes under "See more"'),
  more: z.array(adviceLine).max(12, 'Write at most 12 further points'),
});
export type AdviceInput = z.input<typeof adviceInput>;

/** One leaf photo of a field-level answer, with the model's own answer for it. */
export const analysisPhoto = z.object({
  position: z.number().int().describe('0 for the first photo, then 1, 2 in the order added'),
  url: z.string().describe('The photo (GET with the bearer token; owner and experts)'),
  rust_class: rustClass.nullable().describe("This photo's own best guess; null for a photo with no leaf"),
  confidence: z.number().min(0).max(1).describe("This photo's own share for its best guess"),
});
export type AnalysisPhoto = z.infer<typeof analysisPhoto>;

export const secondPhotoAskSchema = z.object({
  reason: z
    .enum(['unsure', 'close'])
    .nullable()
    .describe(
      '`unsure`: the model is not sure; `close`: the runner-up class came close (answer.closeMargin on the model card); null: no more photos needed',
    ),
  runner_up: rustClass.nullable().describe('The class the answer came close to; null when not asking'),
  photos_left: z.number().int().min(0).describe('How many more photos may be added now'),
});

export const severityBand = z.enum(severityBands, { error: 'severity must be low, moderate or severe' });

/**
 * share: rust-coloured share of the leaf (0..1; a field answer's is the mean of its photos'); band: at the served model
 * card's answer.severityCuts (low < 5 % ≤ moderate < 20 % ≤ severe on v2-20261124); estimate: true until experts' ratings agree
 * with the model's often enough (SEVERITY_TRUST).
 */
export const analysisSeverity = z.object({
  share: z.number().min(0).max(1),
  band: severityBand,
  estimate: z.boolean(),
});
export type AnalysisSeverity = z.infer<typeof analysisSeverity>;

/**
 * An expert's verdict as the farmer's answer (docs/decisions/0049): the result leads with it, and the
 * model's own fields stay beside it as what the model said.
 */
export const expertAnswer = z.object({
  verdict: z.enum(reviewVerdicts),
  note: z.string().nullable().describe("The expert's note to the farmer"),
  severity: severityBand.nullable().describe("The expert's severity band (rust verdicts); null when not rated"),
  answered_at: isoDateTime.describe('When the expert answered, or last changed the answer'),
  changed: z.boolean().describe('The expert changed their first answer'),
  feedback: analysisFeedback.describe("The advice for the expert's answer and the crop"),
  educational_resources: z.array(educationalResource).describe("Resources for the expert's answer and the crop"),
});
export type ExpertAnswer = z.infer<typeof expertAnswer>;

/**
 * The rust-coloured spots the severity share counted, to outline on the photo (`rustSpots` in packages/vision;
 * docs/decisions/0054): boxes `[x0, y0, x1, y1]` (x1, y1 exclusive) on the model's square input of `side`
 * pixels, which is the upright photo squashed; `aspect` is the photo's width ÷ height, so a drawing crops the
 * boxes as it crops the photo. At most 60 boxes, the largest spots.
 */
export const rustSpots = z.object({
  side: z.number().int().positive(),
  aspect: z.number().positive(),
  boxes: z.array(z.tuple([z.number().int(), z.number().int(), z.number().int(), z.number().int()])).max(60),
});
export type RustSpots = z.infer<typeof rustSpots>;

export const analysisResult = z.object({
  id: z.number().int(),
  outcome: analysisOutcome.describe('`not_leaf`: no leaf was found in the photo, and no class is given'),
  rust_class: rustClass.nullable().describe('The best guess; null when no leaf was found'),
  confidence: z.number().min(0).max(1).describe("The model's probability for rust_class (0..1)"),
  unsure: z.boolean().describe('The model is not sure: retake the photo or ask an expert'),
  probabilities: z.record(z.string(), z.number()).describe('Probability per class'),
  educational_resources: z.array(educationalResource),
  feedback: analysisFeedback,
  model_version: z.string(),
  created_at: isoDateTime,
  image_url: z.string().describe('The stored photo (GET with the bearer token; owner and experts)'),
  crop: analysisCrop.nullable().describe('The crop the farmer said the photo shows'),
  field: z
    .object({ id: z.number().int(), name: z.string() })
    .nullable()
    .optional()
    .describe('The field the photo is of (docs/decisions/0078); null or absent for one made offline before it synced'),
  walk_asked: z
    .boolean()
    .optional()
    .describe(
      'A rust answer whose field was not walked in the WALK_RECENT_DAYS before the photo nor since: show "Walk your field to know how much of it has rust" with a link to the walk, instead of any share of the field (docs/decisions/0078)',
    ),
  heatmap_url: z
    .string()
    .nullable()
    .describe(
      'Where the model looked: a transparent PNG to lay over the photo (same access as the photo); null when none',
    ),
  photos: z
    .array(analysisPhoto)
    .describe(
      'Every photo of the answer (one, or up to MAX_FIELD_PHOTOS of one field); with more than one, class, confidence and probabilities are the field-level answer (docs/decisions/0040)',
    ),
  second_photo: secondPhotoAskSchema.describe('Whether the result asks for another leaf of the same field, and why'),
  rust_leaves: z
    .number()
    .int()
    .min(0)
    .nullable()
    .optional()
    .describe(
      'How many of the leaves showed rust on their own (a confident rust answer each): with `leaf_count`, "rust seen on 1 of 3 leaves"; a field with one is never a sure "healthy" or "other disease". Null when not counted (field answers from before it was kept)',
    ),
  leaf_count: z.number().int().min(1).optional().describe('How many leaves (photos) the answer was made from'),
  remind_at: isoDateTime
    .nullable()
    .optional()
    .describe('When Kutu will ask the farmer to check this field again (advice: treat); null when it will not'),
  follow_up: followUpInfo
    .nullable()
    .optional()
    .describe('This photo followed up an earlier diagnosis: what comparing them found; null when not'),
  /** Confident rust answers only; null otherwise, absent on answers made offline on the phone. */
  severity: analysisSeverity.nullable().optional().describe('How much of the leaf shows rust (rust answers)'),
  severity_unmeasured: z
    .boolean()
    .optional()
    .describe(
      'A confident rust answer whose share of the leaf could not be measured (the leaf was not told apart from the soil or plants around it): no severity and no spots; say so instead of a number',
    ),
  rust_spots: rustSpots
    .nullable()
    .optional()
    .describe('The rust-coloured spots the severity counted, to outline on the photo (with severity only)'),
  expert_verdict: z
    .enum(reviewVerdicts)
    .nullable()
    .optional()
    .describe("An expert's verdict on the photo (history marks reviewed photos); null or absent when none yet"),
  expert_answer: expertAnswer
    .nullable()
    .optional()
    .describe("The expert's answer, which the result leads with; null or absent while no expert has answered"),
});
export type AnalysisResult = z.infer<typeof analysisResult>;

export const analysisList = paginated(analysisResult);

/** The history's query: a page, and optionally only one field's photos (one of the caller's fields). */
export const analysisListQuery = pageQuery.extend({
  field: rowId('field', 'Choose one of your fields').optional().describe('Only the photos of this field'),
});
export type AnalysisList = z.infer<typeof analysisList>;

/** A resource as experts manage it. */
export const educationResource = educationalResource.extend({
  id: z.number().int(),
  language: contentLanguage.describe(
    'The language the title and description are in: the one asked for, or English where that one is not written yet',
  ),
  rust_class: resourceTopic,
  crop: analysisCrop
    .nullable()
    .describe('The crop the resource is about (`other`: another crop, e.g. wheat); null: any crop'),
  position: z.number().int(),
  retired: z.boolean(),
  created_at: isoDateTime,
});
export type EducationResource = z.infer<typeof educationResource>;

export const educationResourceList = paginated(educationResource);
export type EducationResourceList = z.infer<typeof educationResourceList>;

export const educationResourcesQuery = pageQuery.extend({
  rust_class: resourceTopic.optional().describe('Only resources about this class or topic'),
  include_retired: z.enum(['true', 'false']).optional().describe('`true` (experts only): also list retired resources'),
  language: contentLanguage
    .optional()
    .describe(
      'Titles and descriptions in this language instead of the reader’s (experts manage the English text with `en`, the text PUT writes)',
    ),
});
export type EducationResourcesQuery = z.input<typeof educationResourcesQuery>;

const httpUrl = z
  .string({ error: 'URL is required' })
  .trim()
  .max(500, 'URL must be at most 500 characters')
  .url({ protocol: /^https?$/, error: 'Enter a full web address starting with http:// or https://' });

const positionMessage = 'Order must be a whole number from 0 to 1000';

export const educationResourceInput = z.object({
  rust_class: resourceTopic,
  title: z
    .string({ error: 'Title is required' })
    .trim()
    .min(3, 'Title must be at least 3 characters')
    .max(200, 'Title must be at most 200 characters'),
  url: httpUrl,
  description: z
    .string({ error: 'Description is required' })
    .trim()
    .min(10, 'Description must be at least 10 characters')
    .max(2000, 'Description must be at most 2000 characters'),
  position: z
    .number({ error: positionMessage })
    .int(positionMessage)
    .min(0, positionMessage)
    .max(1000, positionMessage)
    .default(0)
    .describe('Order within the class, lowest first'),
  link_language: contentLanguage.default('en').describe('The language the linked page is written in'),
  crop: analysisCrop
    .nullable()
    .default(null)
    .describe('The crop the resource is about; null (the default) for any crop. Results list their crop’s first'),
});
export type EducationResourceInput = z.input<typeof educationResourceInput>;

/** The languages a resource's text is translated into (English is the resource itself). */
export const translationLanguages = ['sw', 'lg'] as const satisfies readonly ContentLanguage[];
export type TranslationLanguage = (typeof translationLanguages)[number];
export const resourceTranslationParams = idParam.extend({ language: z.enum(translationLanguages) });

/** A resource's title and description in another language; the link, class and order stay shared. */
export const educationResourceTranslationInput = educationResourceInput.pick({ title: true, description: true });
export type EducationResourceTranslationInput = z.input<typeof educationResourceTranslationInput>;
