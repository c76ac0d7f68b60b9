import { and, count, desc, eq, isNull } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Language, VoiceClipState } from '@kutu/contract';
import type { Db } from '../../db/client.ts';
import { users, voiceClips } from '../../db/schema/index.ts';

export type ClipRow = typeof voiceClips.$inferSelect;
export type NamedClip = ClipRow & { recorder: string; decider: string | null };

const decider = alias(users, 'decider');
const named = { clip: voiceClips, recorder: users.username, decider: decider.username };
const flat = (r: { clip: ClipRow; recorder: string; decider: string | null }): NamedClip => ({
  ...r.clip,
  recorder: r.recorder,
  decider: r.decider,
});

/** The approved recording in use for a text (one per key and language: the unique index). */
const inUse = and(eq(voiceClips.state, 'approved'), isNull(voiceClips.replacedAt));

export function createVoiceRepo(db: Db) {
  const withNames = () =>
    db
      .select(named)
      .from(voiceClips)
      .innerJoin(users, eq(users.id, voiceClips.recordedBy))
      .leftJoin(decider, eq(decider.id, voiceClips.decidedBy));

  return {
    async insert(values: typeof voiceClips.$inferInsert): Promise<NamedClip> {
      const [row] = await db.insert(voiceClips).values(values).returning({ id: voiceClips.id });
      return (await this.byId(row!.id))!;
    },

    async byId(id: number): Promise<NamedClip | undefined> {
      const [row] = await withNames().where(eq(voiceClips.id, id));
      return row && flat(row);
    },

    /** A language's recordings, newest first. */
    async page(language: Language, state: VoiceClipState | 'all', window: { limit: number; offset: number }) {
      const where = and(eq(voiceClips.language, language), state === 'all' ? undefined : eq(voiceClips.state, state));
      const [rows, [total]] = await Promise.all([
        withNames()
          .where(where)
          .orderBy(desc(voiceClips.createdAt), desc(voiceClips.id))
          .limit(window.limit)
          .offset(window.offset),
        db.select({ n: count() }).from(voiceClips).where(where),
      ]);
      return { rows: rows.map(flat), total: total?.n ?? 0 };
    },

    /**
     * A pending recording approved or rejected; an approved one takes the place of the one in use for its
     * text, in one transaction. Undefined when it is not pending (decided already, or gone).
     */
    async decide(id: number, approve: boolean, by: number, now: Date): Promise<boolean> {
      return db.transaction(async (tx) => {
        const [clip] = await tx
          .select()
          .from(voiceClips)
          .where(and(eq(voiceClips.id, id), eq(voiceClips.state, 'pending')))
          .for('update');
        if (!clip) return false;
        if (approve) {
          await tx
            .update(voiceClips)
            .set({ replacedAt: now })
            .where(and(eq(voiceClips.key, clip.key), eq(voiceClips.language, clip.language), inUse));
        }
        await tx
          .update(voiceClips)
          .set({ state: approve ? 'approved' : 'rejected', decidedBy: by, decidedAt: now })
          .where(eq(voiceClips.id, id));
        return true;
      });
    },

    /** The approved recordings in use for a language (at most one per text). */
    inUse: (language: Language) =>
      db
        .select()
        .from(voiceClips)
        .where(and(eq(voiceClips.language, language), inUse))
        .orderBy(voiceClips.key),

    async inUseFor(language: Language, key: string): Promise<ClipRow | undefined> {
      const [row] = await db
        .select()
        .from(voiceClips)
        .where(and(eq(voiceClips.language, language), eq(voiceClips.key, key), inUse));
      return row;
    },
  };
}
export type VoiceRepo = ReturnType<typeof createVoiceRepo>;
