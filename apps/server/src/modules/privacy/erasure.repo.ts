import { type AnyColumn, and, desc, eq, inArray, isNull, ne, or, type SQL, sql } from 'drizzle-orm';
import { type ErasureCounts, FORMER_MEMBER } from '@kutu/contract';
import type { Database, Db, Tx } from '../../db/client.ts';
import { PERSONAL_DATA, type PersonalTable } from './personal-data.ts';
import {
  analyses,
  analysisPhotos,
  availabilitySlots,
  clinicVisits,
  consents,
  deliveries,
  erasureLog,
  moderationAudit,
  notifications,
  officerActions,
  posts,
  readVersions,
  responses,
  trainingSamples,
  users,
  userProfiles,
  ussdActions,
  voiceClips,
} from '../../db/schema/index.ts';

const ANONYMOUS = 'former member';
type UserRow = typeof users.$inferSelect;

/** A Ugandan or Kenyan number as people write it: +256772…, 256772…, 0772…, 772…, longest first. */
export function phoneForms(phone: string): string[] {
  const national = /^\+25[46]\d{9}$/.test(phone) ? phone.slice(4) : null;
  return national ? [phone, phone.slice(1), `0${national}`, national] : [phone];
}

/** The first, middle and last names of the person's profile, when they have one. */
async function profileNames(tx: Tx, userId: number): Promise<string[]> {
  const [p] = await tx
    .select({ first: userProfiles.firstName, middle: userProfiles.middleName, last: userProfiles.lastName })
    .from(userProfiles)
    .where(eq(userProfiles.userId, userId));
  return p ? [p.first, p.middle, p.last] : [];
}

/** What names the person in free text: username, email, number in its written forms, profile names (3 letters or more). */
function personTraces(user: UserRow, names: string[]): string[] {
  const words = [user.username, user.email ?? '', ...phoneForms(user.phone), ...names].map((w) => w.trim());
  return [...new Set(words.filter((w) => w.length >= 3))].sort((a, b) => b.length - a.length);
}

/** `column` with every trace replaced, whatever its case (a PostgreSQL regular expression of the escaped words). */
function unsaid(column: AnyColumn, traces: string[]): SQL {
  const pattern = traces.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
  return sql`regexp_replace(${column}, ${pattern}, ${ANONYMOUS}, 'gi')`;
}

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

/**
 * The tables of PERSONAL_DATA with a row that names the person (by a column of the list), and those
 * reached through them (an analysis's photos and verdicts).
 */
async function holdingTables(tx: Tx, user: UserRow): Promise<Set<string>> {
  const tables = PERSONAL_DATA as Record<string, PersonalTable>;
  const checks = Object.entries(tables).flatMap(([table, entry]) =>
    Object.entries(entry.columns)
      .filter(([, fate]) => typeof fate !== 'object')
      .map(
        ([column]) =>
          sql`select ${table} as t where exists (select 1 from ${sql.identifier(table)} where ${sql.identifier(column)} = ${column === 'phone' ? user.phone : user.id})`,
      ),
  );
  const { rows } = (await tx.execute(sql.join(checks, sql` union all `))) as unknown as { rows: { t: string }[] };
  const found = new Set(rows.map((r) => r.t));
  for (const [table, entry] of Object.entries(tables)) if (entry.through && found.has(entry.through)) found.add(table);
  return found;
}

/** `text` with each word replaced by "former member", longest first (one pass over the row). */
function replaced(text: AnyColumn | SQL, words: string[]): SQL {
  return [...words]
    .sort((a, b) => b.length - a.length)
    .reduce<SQL>((inner, word) => sql`replace(${inner}, ${word}, ${ANONYMOUS})`, sql`${text}`);
}

/** Whether `text` holds any of the words (false with none). */
function mentions(text: AnyColumn | SQL, words: string[]): SQL {
  if (words.length === 0) return sql`false`;
  const likes = words.map((w) => `%${w.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  return sql`${text} like any (${sql`array[${sql.join(
    likes.map((l) => sql`${l}`),
    sql`, `,
  )}]`})`;
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

    /** The account, locked until the transaction ends (two erasures of one person run one after the other). */
    lockUser: async (tx: Tx, userId: number) =>
      (await tx.select().from(users).where(eq(users.id, userId)).for('update'))[0] as UserRow | undefined,

    /**
     * Erases one person in the caller's transaction and returns the storage keys to remove and the counts
     * for the log. Most rows go with the account (foreign keys cascade); what others need is handed to the
     * former-member account; the person's name and number are replaced in messages to other people and
     * in their own posts and comments that stay.
     */
    async erase(tx: Tx, user: UserRow, via: 'web' | 'sms', now: Date, bookingsCancelled: number) {
      const userId = user.id;
      // The tables that hold anything of the person (before it changes): the ones whose files are rewritten.
      const touched = await holdingTables(tx, user);
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
      // Their own words that stay (kept posts, comments in others' threads): their names and number go.
      const traces = personTraces(user, await profileNames(tx, userId));
      if (kept.length > 0) {
        await tx
          .update(posts)
          .set({ title: unsaid(posts.title, traces), content: unsaid(posts.content, traces) })
          .where(inArray(posts.id, kept));
      }
      if (commentsKept.length > 0) {
        await tx
          .update(responses)
          .set({ content: unsaid(responses.content, traces) })
          .where(
            inArray(
              responses.id,
              commentsKept.map((c) => c.id),
            ),
          );
      }
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
        bookings_cancelled: bookingsCancelled,
        voice_clips_erased: clips.length,
      };
      keys.push(...clips.map((c) => c.audioPath));
      await tx.delete(users).where(eq(users.id, userId));
      // After the account: deleting its rows raised its read version (the triggers of migration 0018).
      await tx.delete(readVersions).where(eq(readVersions.userId, userId));
      // Messages to other people that named the person (a booking, a reply): the name and number go,
      // each table read once for all the words.
      const words = [user.username, ...phoneForms(user.phone), ...(user.email ? [user.email] : [])];
      const safe = words.filter(jsonSafe);
      const told = await tx
        .update(notifications)
        .set({ message: replaced(notifications.message, words) })
        .where(mentions(notifications.message, words))
        .returning({ id: notifications.id });
      const inApp = await tx
        .update(notifications)
        .set({
          text: sql`${replaced(sql`${notifications.text}::text`, safe)}::jsonb`,
          data: sql`${replaced(sql`${notifications.data}::text`, safe)}::jsonb`,
        })
        .where(or(mentions(sql`${notifications.text}::text`, safe), mentions(sql`${notifications.data}::text`, safe)))
        .returning({ id: notifications.id });
      if (told.length + inApp.length > 0) touched.add('notifications');
      const sent = await tx
        .update(deliveries)
        .set({
          body: sql`${replaced(sql`${deliveries.body}::text`, safe)}::jsonb`,
          subject: sql`${replaced(sql`${deliveries.subject}::text`, safe)}::jsonb`,
        })
        .where(or(mentions(sql`${deliveries.body}::text`, safe), mentions(sql`${deliveries.subject}::text`, safe)))
        .returning({ id: deliveries.id });
      if (sent.length > 0) touched.add('deliveries');
      const role = user.role as 'farmer' | 'expert' | 'officer';
      await tx.insert(erasureLog).values({ at: now, role, requestedVia: via, counts });
      return { keys: [...new Set(keys.filter((k): k is string => Boolean(k)))], counts, role, touched: [...touched] };
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

/**
 * Rewrites the tables (and their indexes) into new files, then starts a new write-ahead log segment and
 * checkpoints without recycling the old ones: on the embedded database, deleted and replaced rows leave
 * its files (docs/decisions/0080). PostgreSQL keeps them until autovacuum and its WAL retention let go
 * (docs/privacy.md); there a VACUUM FULL would lock the tables for every process, so nothing is done.
 */
export async function rewriteFiles(database: Pick<Database, 'kind' | 'execute'>, tables: string[]) {
  if (database.kind !== 'pglite') return;
  if (tables.length > 0)
    await database.execute(`vacuum full ${tables.map((t) => `"${t.replaceAll('"', '""')}"`).join(', ')}`);
  await database.execute('set wal_recycle = off');
  await database.execute('select pg_switch_wal()');
  await database.execute('checkpoint');
}
