import { type AnyColumn, type SQL, sql } from 'drizzle-orm';
import { clinicVisits } from '../../db/schema/index.ts';

/**
 * The SQL condition "`userId` is a plant clinic's farmer who agreed to SMS at a visit" (docs/decisions/0053),
 * for another module's query that texts farmers without an active account. Modules that this one depends on
 * get it through services.ts as a port (e.g. the forecast's `clinicFarmerSql`).
 */
export const clinicSmsFarmerSql = (userId: AnyColumn | SQL): SQL =>
  sql`exists (select 1 from ${clinicVisits} where ${clinicVisits.farmerId} = ${userId} and ${clinicVisits.consentAt} is not null)`;
