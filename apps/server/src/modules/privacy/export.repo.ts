import { and, eq, getTableColumns, inArray, ne } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  analyses,
  analysisPhotos,
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
  notifications,
  officerActions,
  officerProfiles,
  posts,
  responses,
  scoutingWalks,
  trainingSamples,
  userProfiles,
  users,
  voiceClips,
} from '../../db/schema/index.ts';

const { recordedBy: _expert, ...walkColumns } = getTableColumns(scoutingWalks);

/**
 * Everything Kutu holds about one person, table by table, for their archive. Only rows that are the
 * person's (their account, what they made, what was sent to them); of other people's rows, never a
 * name or number: a booking on an expert's slot shows the time and status, not the farmer.
 */
export function createExportRepo(db: Db) {
  return {
    async gather(userId: number) {
      const [account] = await db.select().from(users).where(eq(users.id, userId));
      if (!account) return null;
      const { passwordHash: _hash, ...profile } = account;
      const ownAnalyses = await db.select().from(analyses).where(eq(analyses.userId, userId)).orderBy(analyses.id);
      const analysisIds = ownAnalyses.map((a) => a.id);
      const some = analysisIds.length > 0;
      const ownPosts = await db.select().from(posts).where(eq(posts.authorId, userId)).orderBy(posts.id);
      return {
        profile: {
          account: profile,
          farmer: (await db.select().from(farmerProfiles).where(eq(farmerProfiles.userId, userId)))[0] ?? null,
          expert: (await db.select().from(expertProfiles).where(eq(expertProfiles.userId, userId)))[0] ?? null,
          officer: (await db.select().from(officerProfiles).where(eq(officerProfiles.userId, userId)))[0] ?? null,
          details: (await db.select().from(userProfiles).where(eq(userProfiles.userId, userId)))[0] ?? null,
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
        followUps: await db.select().from(followUps).where(eq(followUps.userId, userId)),
        /**
         * The person's fields (retired ones too) and their scouting walks, with the advice as given; of a walk
         * an expert counted at a plant clinic, the channel says so, not who.
         */
        fields: await db.select().from(fields).where(eq(fields.userId, userId)).orderBy(fields.id),
        walks: await db
          .select(walkColumns)
          .from(scoutingWalks)
          .where(eq(scoutingWalks.userId, userId))
          .orderBy(scoutingWalks.walkedAt, scoutingWalks.id),
        posts: ownPosts,
        comments: await db.select().from(responses).where(eq(responses.authorId, userId)).orderBy(responses.id),
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
        /** An expert's own slots, with the status of a booking on them but not who booked. */
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
        callbackRequests: await db.select().from(callbackRequests).where(eq(callbackRequests.userId, userId)),
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
        notifications: await db.select().from(notifications).where(eq(notifications.userId, userId)),
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
