import { and, desc, eq } from 'drizzle-orm';
import { CONSENT_TEXT_VERSION, type ConsentChoices, consentPurposes, type ConsentState } from '@kutu/contract';
import type { Db } from '../../db/client.ts';
import { consents, users } from '../../db/schema/index.ts';
import type { Clock } from '../../adapters/clock.ts';

/** "The person agreed to training", as a condition of the training module's queries (a port, through services.ts). */
export { trainingAgreedSql } from './facts.repo.ts';

export type ConsentChannel = (typeof consents.$inferInsert)['channel'];

/**
 * Consent by purpose (docs/decisions/0067-consent-and-erasure.md): each choice a new row with its
 * time, channel and text version; the latest row of a purpose is the choice now. A purpose never
 * asked reads as "no".
 */
export function createConsentService(deps: { db: Db; clock: Clock }) {
  const { db, clock } = deps;

  async function record(userId: number, choices: ConsentChoices, channel: ConsentChannel, at = clock.now()) {
    const rows = consentPurposes
      .filter((p) => choices[p] !== undefined)
      .map((purpose) => ({
        userId,
        purpose,
        granted: choices[purpose] === true,
        textVersion: CONSENT_TEXT_VERSION,
        channel,
        at,
      }));
    if (rows.length === 0) return;
    await db.transaction(async (tx) => {
      await tx.insert(consents).values(rows);
      // "No SMS" is the STOP of decision 0051: nothing but the codes the person asks for.
      if (choices.sms !== undefined) {
        await tx
          .update(users)
          .set({ smsStoppedAt: choices.sms ? null : at })
          .where(eq(users.id, userId));
      }
    });
  }

  async function current(userId: number): Promise<ConsentState> {
    const state = {} as ConsentState;
    for (const purpose of consentPurposes) {
      const [row] = await db
        .select()
        .from(consents)
        .where(and(eq(consents.userId, userId), eq(consents.purpose, purpose)))
        .orderBy(desc(consents.at), desc(consents.id))
        .limit(1);
      state[purpose] = row
        ? { granted: row.granted, at: row.at.toISOString(), channel: row.channel, text_version: row.textVersion }
        : { granted: false, at: null, channel: null, text_version: null };
    }
    return state;
  }

  return {
    record,
    current,
    /** The profile's (or an SMS keyword's) change of SMS or training; only what changed is recorded. */
    async change(userId: number, choices: { sms?: boolean; training?: boolean }, channel: ConsentChannel) {
      const now = await current(userId);
      const changed: ConsentChoices = {};
      if (choices.sms !== undefined && choices.sms !== now.sms.granted) changed.sms = choices.sms;
      if (choices.training !== undefined && choices.training !== now.training.granted)
        changed.training = choices.training;
      await record(userId, changed, channel);
      return current(userId);
    },
  };
}

export type ConsentService = ReturnType<typeof createConsentService>;
