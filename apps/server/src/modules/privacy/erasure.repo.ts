import { and, desc, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import { type ErasureCounts, FORMER_MEMBER } from '@kutu/contract';
import type { Db, Tx } from '../../db/client.ts';
import {
  analyses,
  analysisPhotos,
  availabilitySlots,
  clinicVisits,
  consents,
  deliveries,
  erasureCodes,
  erasureLog,
  moderationAudit,
  notifications,
  officerActions,
  posts,
  readVersions,
  responses,
  trainingSamples,
  users,
  ussdActions,
  voiceClips,
} from '../../db/schema/index.ts';

const ANONYMOUS = 'former member';

async function formerMember(tx: Tx): Promise<number> {
  await tx
    .insert(users)
    // No SMS ever (a reply to a kept post notifies its author): "erased" is no number.
    .values({
      username: FORMER_MEMBER.username,
      phone: FORMER_MEMBER.phone,
      role: 'farmer',
      email: null,
      smsAlerts: false,
      smsStoppedAt: new Date(0),
    })
    .onConflictDoNothing();
  const [row] = await tx.select({ id: users.id }).from(users).where(eq(users.phone, FORMER_MEMBER.phone));
  return row.id;
}

/** Text that JSON writes as it is (no quote, backslash or control character): replacing it in `jsonb::text` keeps the document valid. */
const jsonSafe = (s: string) => JSON.stringify(s) === `"${s}"`;

/** Whether the person's latest choice for `training` is yes. */
async function agreedToTraining(tx: Tx, userId: number): Promise<boolean> {
  const [row] = await tx
    .select({ granted: consents.granted })
    .from(consents)
    .where(and(eq(consents.userId, userId), eq(consents.purpose, 'training')))
    .orderBy(desc(consents.at), desc(consents.id))
    .limit(1);
  return row?.granted === true;
}

export function createErasureRepo(db: Db) {
  return {
    findUser: async (userId: number) =>
      (await db.select().from(users).where(eq(users.id, userId)))[0] as typeof users.$inferSelect | undefined,

    /** Replaces the person's deletion code. */
    async saveCode(userId: number, codeHash: string, expiresAt: Date) {
      await db
        .insert(erasureCodes)
        .values({ userId, codeHash, expiresAt })
        .onConflictDoUpdate({ target: erasureCodes.userId, set: { codeHash, expiresAt, attempts: 0 } });
    },
    code: async (userId: number) => (await db.select().from(erasureCodes).where(eq(erasureCodes.userId, userId)))[0],
    wrongCode: async (userId: number) =>
      db
        .update(erasureCodes)
        .set({ attempts: sql`${erasureCodes.attempts} + 1` })
        .where(eq(erasureCodes.userId, userId)),

    /**
     * Erases one person in one transaction and returns the storage keys to remove and the counts for
     * the log. Most rows go with the account (foreign keys cascade); what others need is handed to the
     * former-member account; the person's name and number are replaced in messages to other people.
     */
    async erase(userId: number, via: 'web' | 'sms', now: Date) {
      return db.transaction(async (tx) => {
        const [user] = await tx.select().from(users).where(eq(users.id, userId)).for('update');
        if (!user || user.role === 'admin') return null;
        const keys: (string | null)[] = [];
        const own = await tx.select().from(analyses).where(eq(analyses.userId, userId));
        const ids = own.map((a) => a.id);
        for (const a of own) keys.push(a.imagePath, a.heatmapPath);
        if (ids.length > 0) {
          const photos = await tx.select().from(analysisPhotos).where(inArray(analysisPhotos.analysisId, ids));
          for (const p of photos) keys.push(p.imagePath, p.heatmapPath);
        }
        // Photos made training samples: kept, pointing to nobody, only if the person agreed.
        let samplesErased = 0;
        let samplesKept = 0;
        if (ids.length > 0) {
          const samples = await tx
            .select({ id: trainingSamples.id, imagePath: trainingSamples.imagePath })
            .from(trainingSamples)
            .where(inArray(trainingSamples.sourceAnalysisId, ids));
          if (await agreedToTraining(tx, userId)) samplesKept = samples.length;
          else if (samples.length > 0) {
            await tx.delete(trainingSamples).where(
              inArray(
                trainingSamples.id,
                samples.map((s) => s.id),
              ),
            );
            keys.push(...samples.map((s) => s.imagePath));
            samplesErased = samples.length;
          }
        }
        const former = await formerMember(tx);
        // Posts others answered stay for the community, without their photo; the rest go.
        const myPosts = await tx.select().from(posts).where(eq(posts.authorId, userId));
        const answered = new Set(
          myPosts.length === 0
            ? []
            : (
                await tx
                  .select({ postId: responses.postId })
                  .from(responses)
                  .where(
                    and(
                      inArray(
                        responses.postId,
                        myPosts.map((p) => p.id),
                      ),
                      ne(responses.authorId, userId),
                    ),
                  )
              ).map((r) => r.postId),
        );
        for (const p of myPosts) keys.push(p.imagePath);
        const kept = myPosts.filter((p) => answered.has(p.id)).map((p) => p.id);
        if (kept.length > 0) {
          await tx.update(posts).set({ authorId: former, imagePath: null }).where(inArray(posts.id, kept));
        }
        const commentsKept = await tx
          .update(responses)
          .set({ authorId: former })
          .where(
            and(
              eq(responses.authorId, userId),
              sql`${responses.postId} in (select id from ${posts} where ${posts.authorId} <> ${userId})`,
            ),
          )
          .returning({ id: responses.id });
        // An expert's work for farmers stays theirs: the visits and slots (with their bookings), anonymised.
        // A moderator's decisions stay in the audit, by the former member.
        await tx.update(moderationAudit).set({ actorId: former }).where(eq(moderationAudit.actorId, userId));
        const visits = await tx
          .update(clinicVisits)
          .set({ expertId: former })
          .where(eq(clinicVisits.expertId, userId))
          .returning({ id: clinicVisits.id });
        await tx
          .update(availabilitySlots)
          .set({ expertId: former, isActive: false, place: null, videoUrl: null })
          .where(eq(availabilitySlots.expertId, userId));
        // An officer's notes stay on the farmers' cases for the next officer and the experts, without who wrote them
        // (the foreign key sets the officer to null).
        const [notes] = await tx
          .select({ n: sql<number>`count(*)::int` })
          .from(officerActions)
          .where(eq(officerActions.officerId, userId));
        await tx.delete(readVersions).where(eq(readVersions.userId, userId));
        // The person's voice recordings go with them (rows by the foreign key, files after the commit).
        const clips = await tx
          .select({ audioPath: voiceClips.audioPath })
          .from(voiceClips)
          .where(eq(voiceClips.recordedBy, userId));
        // The USSD replay guard keeps a day of the number's requests: they go with the person.
        if (user.phone) await tx.delete(ussdActions).where(eq(ussdActions.phone, user.phone));
        // Replies the number got before it had an account (the outbox keeps them by the number).
        if (user.phone) {
          await tx.delete(deliveries).where(and(isNull(deliveries.userId), eq(deliveries.address, user.phone)));
        }
        const counts: ErasureCounts = {
          analyses: own.length,
          photos: keys.filter(Boolean).length,
          posts_erased: myPosts.length - kept.length,
          posts_kept_anonymised: kept.length,
          comments_kept_anonymised: commentsKept.length,
          training_samples_erased: samplesErased,
          training_samples_kept_anonymised: samplesKept,
          clinic_visits_kept_anonymised: visits.length,
          officer_notes_kept_anonymised: notes.n,
          voice_clips_erased: clips.length,
        };
        keys.push(...clips.map((c) => c.audioPath));
        await tx.delete(users).where(eq(users.id, userId));
        // Messages to other people that named the person (a booking, a reply): the name and number go.
        for (const word of [user.username, user.phone]) {
          const like = `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
          await tx
            .update(notifications)
            .set({ message: sql`replace(${notifications.message}, ${word}, ${ANONYMOUS})` })
            .where(sql`${notifications.message} like ${like}`);
          if (!jsonSafe(word)) continue;
          await tx
            .update(notifications)
            .set({
              text: sql`replace(${notifications.text}::text, ${word}, ${ANONYMOUS})::jsonb`,
              data: sql`replace(${notifications.data}::text, ${word}, ${ANONYMOUS})::jsonb`,
            })
            .where(sql`(${notifications.text}::text like ${like} or ${notifications.data}::text like ${like})`);
          await tx
            .update(deliveries)
            .set({
              body: sql`replace(${deliveries.body}::text, ${word}, ${ANONYMOUS})::jsonb`,
              subject: sql`replace(${deliveries.subject}::text, ${word}, ${ANONYMOUS})::jsonb`,
            })
            .where(sql`(${deliveries.body}::text like ${like} or ${deliveries.subject}::text like ${like})`);
        }
        const role = user.role as 'farmer' | 'expert' | 'officer';
        await tx.insert(erasureLog).values({ at: now, role, requestedVia: via, counts });
        return { keys: [...new Set(keys.filter((k): k is string => Boolean(k)))], counts, role };
      });
    },

    erasures: async ({ limit, offset }: { limit: number; offset: number }) => ({
      rows: await db
        .select()
        .from(erasureLog)
        .orderBy(desc(erasureLog.at), desc(erasureLog.id))
        .limit(limit)
        .offset(offset),
      total: (await db.select({ n: sql<number>`count(*)::int` }).from(erasureLog))[0].n,
    }),
  };
}
