import type { ColumnBaseConfig, ColumnDataType, Subquery } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';

/**
 * A column of another module's read-only facts subquery, as the module using it types it: what it holds
 * (`T`) and whether it can be null. The owner's `facts.repo.ts` subquery fits it.
 */
export type FactColumn<T, NotNull extends boolean = true> = PgColumn<
  ColumnBaseConfig<ColumnDataType, string> & { data: T; notNull: NotNull }
>;

/**
 * Another module's read-only facts subquery (a `QueryBuilder` `.as(…)` of its `facts.repo.ts`), typed where
 * it is used by the columns used: a port that services.ts hands in when the owner module uses this one, so
 * it cannot be imported (docs/CONTRIBUTING.md, "Tables and their owners").
 */
export type FactsPort<Columns extends Record<string, FactColumn<unknown, boolean>>> = Subquery<string, Columns> &
  Columns;
