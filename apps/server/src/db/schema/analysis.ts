import { contentLanguages, translationLanguages } from '@kutu/contract';
import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { oneOf } from '../value-list.ts';
import { users } from './auth.ts';
import { fields } from './fields.ts';

export const analyses = pgTable(
  'analyses',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    imagePath: text('image_path').notNull(),
    outcome: text('outcome', { enum: ['diagnosis', 'not_leaf'] }).notNull(),
    rustClass: text('rust_class'),
    confidence: real('confidence').notNull(),
    unsure: boolean('unsure').notNull().default(false),
    probabilities: jsonb('probabilities').$type<Record<string, number>>().notNull(),
    /** How leaf-like the photo looked to the model (0..1); null for analyses made before it was kept. */
    leafScore: real('leaf_score'),
    modelVersion: text('model_version').notNull(),
    /**
     * The model's out-of-distribution score for the (first) photo; null where the model has none or
     * for analyses made before it was kept. A field-level answer (analysis_photos) averages it.
     */
    oodScore: real('ood_score'),
    /**
     * Rust-coloured share of the leaf (0..1, `estimateSeverity` in @kutu/vision; docs/decisions/0045), kept for
     * every photo with a leaf; a field-level answer holds the mean of its photos'. The result shows it for
     * confident rust answers only. Null before it was kept, or with too little leaf.
     */
    rustShare: real('rust_share'),
    /**
     * The (first) photo's rust-coloured spots that share counted (`rustSpots` in @kutu/vision; decision 0054),
     * boxes on the model's square input; the result outlines them for confident rust answers only.
     */
    rustSpots: jsonb('rust_spots').$type<{ side: number; aspect: number; boxes: [number, number, number, number][] }>(),
    /**
     * How many of the field's leaves showed rust on their own (`fieldDiagnosis` of @kutu/vision, rust on any
     * leaf is said); null for one photo (its own answer says it) and for field answers made before it was kept.
     */
    rustLeaves: integer('rust_leaves'),
    /**
     * The (first) photo's print (`leafPrint` of @kutu/vision, base64): a leaf already in the answer is not
     * added again. Null for photos from before it was kept.
     */
    leafPrint: text('leaf_print'),
    /** How many photos of one field make this answer (1, or up to 3: analysis_photos; docs/decisions/0040). */
    photoCount: integer('photo_count').notNull().default(1),
    /** The crop the farmer said the photo shows (maize, beans, other); null when not said. */
    crop: text('crop', { enum: ['maize', 'beans', 'other'] }),
    /**
     * The farmer's field the photo is of (docs/decisions/0078). Every analysis made since fields exist has
     * one; the migration put older ones in one field per farmer and crop.
     */
    fieldId: integer('field_id').references(() => fields.id, { onDelete: 'set null' }),
    /** The class-activation heatmap (transparent PNG) in storage, when the model gave one. */
    heatmapPath: text('heatmap_path'),
    /**
     * The client's `Idempotency-Key` (a photo diagnosed offline and queued on the phone): unique per
     * user, so a retried upload returns the first analysis instead of making a second one.
     */
    idempotencyKey: text('idempotency_key'),
    /**
     * Top-1 minus top-2 crop-class probability: how close the model came to another answer. Kept by
     * the database from `probabilities`, so the review queue can sort on it with an index.
     */
    margin: real('margin').generatedAlwaysAs(
      sql`(2 * greatest((probabilities->>'common_rust')::real, (probabilities->>'healthy')::real, (probabilities->>'other_disease')::real)
        + least((probabilities->>'common_rust')::real, (probabilities->>'healthy')::real, (probabilities->>'other_disease')::real)
        - ((probabilities->>'common_rust')::real + (probabilities->>'healthy')::real + (probabilities->>'other_disease')::real))`,
    ),
    /** Try-out data made by `npm run outbreak:demo` (docs/decisions/0031): shown as such wherever it counts. */
    demo: boolean('demo').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('analyses_user_created_idx').on(t.userId, t.createdAt),
    index('analyses_field_created_idx').on(t.fieldId, t.createdAt),
    uniqueIndex('analyses_user_idempotency_key_idx').on(t.userId, t.idempotencyKey),
    /** The review queue's order after asked-about items: unsure first, smallest margin, newest. */
    index('analyses_review_order_idx').on(
      t.unsure.desc().nullsFirst(),
      t.margin.asc(),
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
  ],
);

/**
 * The photos of a field-level answer (docs/decisions/0040): written when a farmer adds a second photo
 * to an unsure or close answer, position 0 being the analysis's own first photo (which stays in
 * analyses.image_path, so every screen that shows one photo keeps working). Each row keeps the model's
 * own answer for that photo; the analysis row holds the combined one.
 */
export const analysisPhotos = pgTable(
  'analysis_photos',
  {
    analysisId: integer('analysis_id')
      .notNull()
      .references(() => analyses.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    imagePath: text('image_path').notNull(),
    heatmapPath: text('heatmap_path'),
    rustClass: text('rust_class').notNull(),
    confidence: real('confidence').notNull(),
    probabilities: jsonb('probabilities').$type<Record<string, number>>().notNull(),
    leafScore: real('leaf_score'),
    oodScore: real('ood_score'),
    /** This photo's rust-coloured share of the leaf (analyses.rust_share). */
    rustShare: real('rust_share'),
    /** This photo's print (analyses.leaf_print). */
    leafPrint: text('leaf_print'),
    modelVersion: text('model_version').notNull(),
    /** The client's `Idempotency-Key` (a photo queued on the phone): a retried upload adds nothing. */
    idempotencyKey: text('idempotency_key'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.analysisId, t.position] }),
    uniqueIndex('analysis_photos_idempotency_key_idx').on(t.analysisId, t.idempotencyKey),
    check('analysis_photos_position_check', sql`${t.position} between 0 and 2`),
  ],
);

export const educationResources = pgTable(
  'education_resources',
  {
    id: serial('id').primaryKey(),
    /** One of the three classes, or `photo_tips` (how to take a photo the model can read). */
    rustClass: text('rust_class').notNull(),
    /**
     * The crop the resource is about (maize, beans, or `other` for another crop such as wheat); null for
     * any crop. A result lists its crop's resources and the general ones (docs/decisions/0049).
     */
    crop: text('crop', { enum: ['maize', 'beans', 'other'] }),
    title: text('title').notNull(),
    url: text('url').notNull(),
    /** The English title and description: the text shown when no translation exists. */
    description: text('description').notNull(),
    /** The language the linked page is written in (the seeded pages are all English). */
    linkLanguage: text('link_language', { enum: contentLanguages }).notNull().default('en'),
    position: integer('position').notNull().default(0),
    retiredAt: timestamp('retired_at', { withTimezone: true }),
    updatedBy: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('education_resources_class_position_idx').on(t.rustClass, t.position),
    check('education_resources_link_language_check', oneOf(t.linkLanguage, contentLanguages)),
  ],
);

/**
 * A resource's title and description in a language other than English (one row per resource and
 * language). The link, order and retirement stay on the resource, shared by every language.
 */
export const educationResourceTranslations = pgTable(
  'education_resource_translations',
  {
    resourceId: integer('resource_id')
      .notNull()
      .references(() => educationResources.id, { onDelete: 'cascade' }),
    language: text('language', { enum: contentLanguages }).notNull(),
    title: text('title').notNull(),
    description: text('description').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.resourceId, t.language] }),
    check('education_resource_translations_language_check', oneOf(t.language, translationLanguages)),
  ],
);

/**
 * What a farmer should do after a result, per result topic (a class, `unsure`, `not_leaf`) and crop
 * (`maize`, `beans`, or `general`, the fallback for any other crop). Seeded by a migration from the
 * vetted education resources; experts edit it in the app.
 */
export const advice = pgTable(
  'advice',
  {
    id: serial('id').primaryKey(),
    topic: text('topic').notNull(),
    crop: text('crop').notNull(),
    /** The language of headline, steps and more; sources stay as titled by their (English) pages. */
    language: text('language', { enum: contentLanguages }).notNull().default('en'),
    headline: text('headline').notNull(),
    /** Three to five steps for this week, most urgent first. */
    steps: jsonb('steps').$type<string[]>().notNull(),
    /** The rest, behind "See more". */
    more: jsonb('more').$type<string[]>().notNull().default([]),
    /** Where the advice comes from (title and address). */
    sources: jsonb('sources').$type<{ title: string; url: string }[]>().notNull().default([]),
    updatedBy: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('advice_topic_crop_language_idx').on(t.topic, t.crop, t.language),
    check('advice_language_check', oneOf(t.language, contentLanguages)),
  ],
);
