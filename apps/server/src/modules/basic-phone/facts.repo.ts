import { sql } from 'drizzle-orm';
import { QueryBuilder } from 'drizzle-orm/pg-core';
import type { Tx } from '../../db/client.ts';
import { callbackRequests } from '../../db/schema/index.ts';

/**
 * A farmer's call-back requests as another module's query reads them (an officer's week), read only: a
 * subquery PostgreSQL folds into the table's own plan, so this module alone decides the table's shape.
 * The extension module is one this module uses, so services.ts hands it in.
 */
export const callbackFacts = new QueryBuilder()
  .select({ userId: callbackRequests.userId, createdAt: callbackRequests.createdAt, doneAt: callbackRequests.doneAt })
  .from(callbackRequests)
  .as('callback_facts');

/**
 * Closes the farmer's open call-back requests as answered by an officer's call (the experts' list says an
 * officer called, and what they noted), in the caller's transaction, which records the call.
 */
export async function closeCallbacks(
  tx: Tx,
  call: { farmerId: number; at: Date; by: number | null; actionId: number },
): Promise<void> {
  await tx.execute(
    sql`update ${callbackRequests} set done_at = ${call.at}, done_by = ${call.by}, done_action_id = ${call.actionId}
        where user_id = ${call.farmerId} and done_at is null`,
  );
}
