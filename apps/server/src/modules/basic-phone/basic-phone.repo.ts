import { and, count, desc, eq, gt, inArray, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Language } from '@kutu/contract';
import type { Db } from '../../db/client.ts';
import { callbackRequests, users, ussdActions } from '../../db/schema/index.ts';
import { analysisFacts } from '../analysis/analysis.service.ts';
import { bookingFacts } from '../consultations/consultations.service.ts';
import { actionFacts } from '../extension/extension.service.ts';
import { reviewFacts } from '../review/review.service.ts';

/** Who closed a call-back request (an expert, or an officer by recording a call). */
const closer = alias(users, 'closer');

/** What the menu and the SMS keywords know of a number's account. */
export interface PhoneUser {
  id: number;
  username: string;
  role: 'farmer' | 'expert' | 'admin' | 'officer';
  phone: string;
  language: Language;
  district: string | null;
  smsAlerts: boolean;
  smsStoppedAt: Date | null;
  /** A call with each rust advisory, chosen (docs/decisions/0123). */
  voiceWarnings: boolean;
}

const phoneUser = {
  id: users.id,
  username: users.username,
  role: users.role,
  phone: users.phone,
  language: users.language,
  district: users.district,
  smsAlerts: users.smsAlerts,
  smsStoppedAt: users.smsStoppedAt,
  voiceWarnings: users.voiceWarnings,
};

export function createBasicPhoneRepo(db: Db) {
  return {
    /**
     * The account the number belongs to: an active one, or a phone-only farmer a plant clinic signed up
     * with their consent (no password; docs/decisions/0053). A web sign-up that never confirmed its SMS code
     * is not the caller's: whoever typed the number made it, and the menu does not act on it.
     */
    async userByPhone(phone: string): Promise<PhoneUser | undefined> {
      const [row] = await db
        .select(phoneUser)
        .from(users)
        .where(and(eq(users.phone, phone), or(isNotNull(users.activatedAt), isNull(users.passwordHash))));
      return row;
    },

    /**
     * Runs a menu action once per session, number and answers: a replayed request gets the first one's
     * reply (null while that one still runs) and `act` does not run. Rows older than a day are dropped.
     */
    async actOnce(key: { sessionId: string; phone: string; text: string }, now: Date, act: () => Promise<string>) {
      await db.delete(ussdActions).where(lt(ussdActions.createdAt, new Date(now.getTime() - 86_400_000)));
      const [mine] = await db
        .insert(ussdActions)
        .values({ ...key, createdAt: now })
        .onConflictDoNothing()
        .returning({ at: ussdActions.createdAt });
      const match = and(
        eq(ussdActions.sessionId, key.sessionId),
        eq(ussdActions.phone, key.phone),
        eq(ussdActions.text, key.text),
      );
      if (!mine) {
        const [first] = await db.select({ reply: ussdActions.reply }).from(ussdActions).where(match);
        return first?.reply ?? null;
      }
      const reply = await act();
      await db.update(ussdActions).set({ reply }).where(match);
      return reply;
    },

    /** Whether any account, active or not, holds the number. */
    async numberTaken(phone: string): Promise<boolean> {
      const [row] = await db.select({ id: users.id }).from(users).where(eq(users.phone, phone));
      return row !== undefined;
    },

    async userById(id: number): Promise<PhoneUser | undefined> {
      const [row] = await db.select(phoneUser).from(users).where(eq(users.id, id));
      return row;
    },

    setLanguage: (userId: number, language: Language) => db.update(users).set({ language }).where(eq(users.id, userId)),

    /** The farmer's newest analysis with the expert's verdict, if one was given. */
    async lastDiagnosis(userId: number) {
      const [row] = await db
        .select({
          id: analysisFacts.id,
          outcome: analysisFacts.outcome,
          rustClass: analysisFacts.rustClass,
          unsure: analysisFacts.unsure,
          confidence: analysisFacts.confidence,
          crop: analysisFacts.crop,
          createdAt: analysisFacts.createdAt,
          verdict: reviewFacts.verdict,
        })
        .from(analysisFacts)
        .leftJoin(reviewFacts, eq(reviewFacts.analysisId, analysisFacts.id))
        .where(eq(analysisFacts.userId, userId))
        .orderBy(desc(analysisFacts.createdAt), desc(analysisFacts.id))
        .limit(1);
      return row;
    },

    /** The farmer's next live booking (pending or approved) from now on, with the expert's name. */
    async nextBooking(userId: number, now: Date) {
      const [row] = await db
        .select({
          status: bookingFacts.status,
          at: sql<Date>`coalesce(${bookingFacts.selectedDate}, ${bookingFacts.startTime})`.mapWith(
            (v: string | Date) => new Date(v),
          ),
          expert: users.username,
        })
        .from(bookingFacts)
        .innerJoin(users, eq(users.id, bookingFacts.expertId))
        .where(
          and(
            eq(bookingFacts.farmerId, userId),
            inArray(bookingFacts.status, ['pending', 'approved']),
            gt(bookingFacts.endTime, now),
          ),
        )
        .orderBy(bookingFacts.startTime)
        .limit(1);
      return row;
    },

    async openCallbackOf(userId: number) {
      const [row] = await db
        .select({ id: callbackRequests.id })
        .from(callbackRequests)
        .where(and(eq(callbackRequests.userId, userId), isNull(callbackRequests.doneAt)));
      return row;
    },

    addCallback: (v: { userId: number; language: Language; channel: 'ussd' | 'sms' | 'call'; now: Date }) =>
      db.insert(callbackRequests).values({
        userId: v.userId,
        language: v.language,
        channel: v.channel,
        createdAt: v.now,
      }),

    /** Open requests first (oldest first), then done ones (newest first). */
    async callbacks(state: 'open' | 'done', window: { limit: number; offset: number }) {
      const where = state === 'open' ? isNull(callbackRequests.doneAt) : sql`${callbackRequests.doneAt} is not null`;
      const [rows, [total]] = await Promise.all([
        db
          .select({
            id: callbackRequests.id,
            language: callbackRequests.language,
            channel: callbackRequests.channel,
            createdAt: callbackRequests.createdAt,
            doneAt: callbackRequests.doneAt,
            doneByName: closer.username,
            doneByRole: closer.role,
            doneNote: actionFacts.note,
            username: users.username,
            phone: users.phone,
            district: users.district,
          })
          .from(callbackRequests)
          .innerJoin(users, eq(users.id, callbackRequests.userId))
          .leftJoin(closer, eq(closer.id, callbackRequests.doneBy))
          .leftJoin(actionFacts, eq(actionFacts.id, callbackRequests.doneActionId))
          .where(where)
          .orderBy(state === 'open' ? callbackRequests.createdAt : desc(callbackRequests.doneAt), callbackRequests.id)
          .limit(window.limit)
          .offset(window.offset),
        db.select({ n: count() }).from(callbackRequests).where(where),
      ]);
      return { rows, total: total?.n ?? 0 };
    },

    /** Marks an open request done; false when there is none (unknown, or done already). */
    async callbackDone(id: number, expertId: number, now: Date): Promise<boolean> {
      const rows = await db
        .update(callbackRequests)
        .set({ doneAt: now, doneBy: expertId })
        .where(and(eq(callbackRequests.id, id), isNull(callbackRequests.doneAt)))
        .returning({ id: callbackRequests.id });
      return rows.length > 0;
    },
  };
}
export type BasicPhoneRepo = ReturnType<typeof createBasicPhoneRepo>;
