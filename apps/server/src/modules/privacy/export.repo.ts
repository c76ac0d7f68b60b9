import { and, eq, getTableColumns, inArray, ne } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.ts';
import {
  analyses,
  analysisPhotos,
  availabilityRules,
  availabilitySlots,
  bookings,
  callbackRequests,
  clinicVisits,
  consents,
  deliveries,
  expertProfiles,
  expertReviews,
  farmerProfiles,
  fields,
  followUps,
  moderationAudit,
  notifications,
  officerActions,
  officerProfiles,
  posts,
  responses,
  roleApplications,
  scoutingWalks,
  trainingSamples,
  userProfiles,
  users,
  voiceClips,
} from '../../db/schema/index.ts';
import { othersColumns, type PersonalTableName } from './personal-data.ts';

/**
 * A table's columns without those naming another person (personal-data.ts): who vetted, moderated,
 * reviewed or closed something is not the person's data, and an archive never holds their id.
 */
function ownColumns<T extends PgTable>(table: T, name: PersonalTableName, owner: string, drop: string[] = []) {
  const skip = new Set([...othersColumns(name, owner), ...drop]);
  const all = getTableColumns(table) as Record<string, PgColumn>;
  return Object.fromEntries(Object.entries(all).filter(([, c]) => !skip.has(c.name))) as T['_']['columns'];
}

/**
 * Everything Kutu holds about one person, table by table, for their archive (the tables and where each
 * goes: personal-data.ts). Only rows that are the person's (their account, what they made, what was sent
 * to them); of other people's rows, never a name, number or id: a booking on an expert's slot shows the
 * time and status, not the farmer.
 */
export function createExportRepo(db: Db) {
  const rowsOf = <T extends PgTable>(
    table: T,
    name: PersonalTableName,
    owner: PgColumn,
    userId: number,
    ...order: PgColumn[]
  ) =>
    db
      .select(ownColumns(table, name, owner.name))
      .from(table as PgTable)
      .where(eq(owner, userId))
      .orderBy(...order) as Promise<Record<string, unknown>[]>;

  return {
    async gather(userId: number) {
      const [account] = await db
        .select(ownColumns(users, 'users', 'id', ['password_hash']))
        .from(users)
        .where(eq(users.id, userId));
      if (!account) return null;
      const ownAnalyses = await db.select().from(analyses).where(eq(analyses.userId, userId)).orderBy(analyses.id);
      const analysisIds = ownAnalyses.map((a) => a.id);
      const some = analysisIds.length > 0;
      const ownPosts = (await rowsOf(posts, 'posts', posts.authorId, userId)) as (typeof posts.$inferSelect)[];
      const one = async <T extends PgTable>(table: T, name: PersonalTableName, owner: PgColumn) =>
        (await rowsOf(table, name, owner, userId))[0] ?? null;
      return {
        profile: {
          account,
          farmer: await one(farmerProfiles, 'farmer_profiles', farmerProfiles.userId),
          expert: await one(expertProfiles, 'expert_profiles', expertProfiles.userId),
          officer: await one(officerProfiles, 'officer_profiles', officerProfiles.userId),
          /** Applications for a role that needs approval, with the decision (not who decided). */
          applications: await rowsOf(roleApplications, 'role_applications', roleApplications.userId, userId),
          details: await one(userProfiles, 'user_profiles', userProfiles.userId),
        },
        consents: await db.select().from(consents).where(eq(consents.userId, userId)).orderBy(consents.id),
        analyses: ownAnalyses,
        analysisPhotos: some
          ? await db.select().from(analysisPhotos).where(inArray(analysisPhotos.analysisId, analysisIds))
          : [],
        /** The experts' verdicts on the person's photos (without who reviewed). */
        verdicts: some
          ? await db
              .select({
                analysisId: expertReviews.analysisId,
                question: expertReviews.question,
                verdict: expertReviews.verdict,
                note: expertReviews.note,
                severity: expertReviews.severity,
                reviewedAt: expertReviews.reviewedAt,
              })
              .from(expertReviews)
              .where(inArray(expertReviews.analysisId, analysisIds))
          : [],
        trainingSamplesFromMyPhotos: some
          ? await db
              .select({
                id: trainingSamples.id,
                label: trainingSamples.label,
                sourceAnalysisId: trainingSamples.sourceAnalysisId,
                removedAt: trainingSamples.removedAt,
                createdAt: trainingSamples.createdAt,
              })
              .from(trainingSamples)
              .where(inArray(trainingSamples.sourceAnalysisId, analysisIds))
          : [],
        followUps: await rowsOf(followUps, 'follow_ups', followUps.userId, userId),
        /**
         * The person's fields (retired ones too) and their scouting walks, with the advice as given; of a walk
         * an expert counted at a plant clinic, the channel says so, not who.
         */
        fields: await rowsOf(fields, 'fields', fields.userId, userId, fields.id),
        walks: await rowsOf(
          scoutingWalks,
          'scouting_walks',
          scoutingWalks.userId,
          userId,
          scoutingWalks.walkedAt,
          scoutingWalks.id,
        ),
        posts: ownPosts,
        comments: await rowsOf(responses, 'responses', responses.authorId, userId),
        /** A moderator's own decisions (on which post or comment, from and to which state, why). */
        moderationDone: await rowsOf(moderationAudit, 'moderation_audit', moderationAudit.actorId, userId),
        bookings: await db
          .select({
            id: bookings.id,
            status: bookings.status,
            topic: bookings.topic,
            analysisId: bookings.analysisId,
            selectedDate: bookings.selectedDate,
            reason: bookings.reason,
            slotStart: availabilitySlots.startTime,
            slotEnd: availabilitySlots.endTime,
            mode: availabilitySlots.mode,
            createdAt: bookings.createdAt,
          })
          .from(bookings)
          .innerJoin(availabilitySlots, eq(availabilitySlots.id, bookings.slotId))
          .where(eq(bookings.farmerId, userId)),
        /** An expert's weekly availability and their slots, with the status of a booking on them but not who booked. */
        availability: await rowsOf(availabilityRules, 'availability_rules', availabilityRules.expertId, userId),
        slots: await db
          .select({
            id: availabilitySlots.id,
            startTime: availabilitySlots.startTime,
            endTime: availabilitySlots.endTime,
            mode: availabilitySlots.mode,
            place: availabilitySlots.place,
            isActive: availabilitySlots.isActive,
          })
          .from(availabilitySlots)
          .where(eq(availabilitySlots.expertId, userId)),
        clinicVisitsAsFarmer: await db
          .select({
            id: clinicVisits.id,
            crop: clinicVisits.crop,
            variety: clinicVisits.variety,
            growthStage: clinicVisits.growthStage,
            shareAffected: clinicVisits.shareAffected,
            symptoms: clinicVisits.symptoms,
            analysisIds: clinicVisits.analysisIds,
            verdict: clinicVisits.verdict,
            severity: clinicVisits.severity,
            recommendation: clinicVisits.recommendation,
            createdAt: clinicVisits.createdAt,
          })
          .from(clinicVisits)
          .where(eq(clinicVisits.farmerId, userId)),
        /** The person's call-back requests: when, how, done or not (not which officer closed them). */
        callbackRequests: await rowsOf(callbackRequests, 'callback_requests', callbackRequests.userId, userId),
        /** The person's voice recordings (what each reads, its state), without who approved them. */
        voiceClips: await db
          .select({
            id: voiceClips.id,
            key: voiceClips.key,
            language: voiceClips.language,
            text: voiceClips.text,
            audioPath: voiceClips.audioPath,
            durationMs: voiceClips.durationMs,
            state: voiceClips.state,
            createdAt: voiceClips.createdAt,
          })
          .from(voiceClips)
          .where(eq(voiceClips.recordedBy, userId))
          .orderBy(voiceClips.id),
        /** What extension officers recorded about the person (a call or a visit, with the note), not which officer. */
        officerNotesAboutMe: await db
          .select({
            kind: officerActions.kind,
            note: officerActions.note,
            district: officerActions.district,
            analysisId: officerActions.analysisId,
            createdAt: officerActions.createdAt,
          })
          .from(officerActions)
          .where(eq(officerActions.farmerId, userId)),
        /** An officer's own notes, without the farmer they are about. */
        officerNotesWritten: await db
          .select({
            kind: officerActions.kind,
            note: officerActions.note,
            district: officerActions.district,
            createdAt: officerActions.createdAt,
          })
          .from(officerActions)
          .where(eq(officerActions.officerId, userId)),
        notifications: await rowsOf(notifications, 'notifications', notifications.userId, userId),
        /** The outbox rows addressed to the person (SMS and email). */
        messages: await db
          .select({
            id: deliveries.id,
            channel: deliveries.channel,
            kind: deliveries.kind,
            body: deliveries.body,
            subject: deliveries.subject,
            state: deliveries.state,
            sentAt: deliveries.sentAt,
            createdAt: deliveries.createdAt,
          })
          .from(deliveries)
          .where(eq(deliveries.userId, userId)),
        /** Comments of others on the person's posts are theirs, not the person's: only their count. */
        repliesOnMyPosts:
          ownPosts.length > 0
            ? (
                await db
                  .select({ postId: responses.postId })
                  .from(responses)
                  .where(
                    and(
                      inArray(
                        responses.postId,
                        ownPosts.map((p) => p.id),
                      ),
                      ne(responses.authorId, userId),
                    ),
                  )
              ).length
            : 0,
      };
    },
  };
}

export type PersonData = NonNullable<Awaited<ReturnType<ReturnType<typeof createExportRepo>['gather']>>>;
