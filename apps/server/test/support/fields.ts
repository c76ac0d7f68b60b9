import type { Db } from '../../src/db/client.ts';
import { fields } from '../../src/db/schema/index.ts';

let counter = 0;

/**
 * A live field of the farmer inserted straight into the database, for tests that write analyses or
 * reminders by hand (the fields tests drive the real routes). Named and numbered uniquely.
 */
export async function insertField(
  db: Db,
  userId: number,
  crop: 'maize' | 'beans' | 'other' = 'maize',
  more: Partial<typeof fields.$inferInsert> = {},
) {
  counter += 1;
  const now = new Date();
  const [row] = await db
    .insert(fields)
    .values({
      userId,
      name: `Test field ${counter}`,
      crop,
      number: 1000 + counter,
      createdAt: now,
      updatedAt: now,
      ...more,
    })
    .returning();
  return row;
}
