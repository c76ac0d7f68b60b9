import { languages } from '@kutu/contract';
import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { oneOf } from '../value-list.ts';
import { users } from './auth.ts';

/**
 * A person's recording of a text Kutu speaks (docs/decisions/0087): an advice entry, a result sentence or
 * a sentence of the phone call, in a language (Luganda above all, which has no synthetic voice). A second
 * person approves it before farmers hear it; it plays only while the text it stands for is still `text`
 * (a changed advice text leaves it out of date). The recording is the person's data: it goes with the
 * account (export and erasure, modules/privacy).
 */
export const voiceClips = pgTable(
  'voice_clips',
  {
    id: serial('id').primaryKey(),
    /** What it reads: `advice:<topic>:<crop>`, a result sentence's catalogue key, `voice.call.…`. */
    key: text('key').notNull(),
    language: text('language', { enum: languages }).notNull(),
    /** The words as they were when it was recorded. */
    text: text('text').notNull(),
    /** The stored MP3 (storage key under `voice/clips/`). */
    audioPath: text('audio_path').notNull(),
    bytes: integer('bytes').notNull(),
    durationMs: integer('duration_ms').notNull(),
    state: text('state', { enum: ['pending', 'approved', 'rejected'] })
      .notNull()
      .default('pending'),
    recordedBy: integer('recorded_by')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    decidedBy: integer('decided_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    /** A newer approved recording of the same key and language took its place. */
    replacedAt: timestamp('replaced_at', { withTimezone: true }),
  },
  (t) => [
    index('voice_clips_language_idx').on(t.language, t.state, t.createdAt),
    index('voice_clips_recorded_by_idx').on(t.recordedBy),
    // One approved recording in use per text and language.
    uniqueIndex('voice_clips_current_idx').on(t.key, t.language).where(sql`state = 'approved' and replaced_at is null`),
    check('voice_clips_language_check', oneOf(t.language, languages)),
    check('voice_clips_state_check', sql`${t.state} in ('pending', 'approved', 'rejected')`),
  ],
);
