import { type AnyColumn, type SQL, sql } from 'drizzle-orm';

/**
 * A check constraint's `column in ('a', 'b')` written from a list of the contract (its languages): the
 * constraint and the list it guards cannot drift apart. The values are the contract's own constants,
 * never input, so they are written into the statement as they are.
 */
export const oneOf = (column: AnyColumn, values: readonly string[]): SQL =>
  sql`${column} in (${sql.raw(values.map((v) => `'${v}'`).join(', '))})`;
