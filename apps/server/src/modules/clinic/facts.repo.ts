import { type AnyColumn, type SQL, sql } from 'drizzle-orm';
import { QueryBuilder } from 'drizzle-orm/pg-core';
import { clinicVisits } from '../../db/schema/index.ts';

/**
 * The SQL condition "`userId` is a plant clinic's farmer who agreed to SMS at a visit" (docs/decisions/0053),
 * for another module's query that texts farmers without an active account. Modules that this one depends on
 * get it through services.ts as a port (e.g. the forecast's `clinicFarmerSql`).
 */
export const clinicSmsFarmerSql = (userId: AnyColumn | SQL): SQL =>
  sql`exists (select 1 from ${clinicVisits} where ${clinicVisits.farmerId} = ${userId} and ${clinicVisits.consentAt} is not null)`;

/**
 * Plant-clinic visits as another module's query counts them (an officer's week), read only: a subquery
 * PostgreSQL folds into the table's own plan. The extension module is one this module uses, so services.ts
 * hands it in.
 */
export const visitFacts = new QueryBuilder()
  .select({ farmerId: clinicVisits.farmerId, verdict: clinicVisits.verdict, createdAt: clinicVisits.createdAt })
  .from(clinicVisits)
  .as('visit_facts');
