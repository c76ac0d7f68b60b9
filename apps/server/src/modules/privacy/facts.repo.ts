import { type AnyColumn, type SQL, sql } from 'drizzle-orm';
import { consents } from '../../db/schema/index.ts';

/**
 * The SQL condition "`userId`'s latest choice for training is yes" (docs/decisions/0067), for another
 * module's query of photos it may learn from. The training module is one this module reaches (erasure,
 * through consultations and analysis), so services.ts hands it in.
 */
export const trainingAgreedSql = (userId: AnyColumn | SQL): SQL =>
  sql`(select ${consents.granted} from ${consents} where ${consents.userId} = ${userId} and ${consents.purpose} = 'training'
        order by ${consents.at} desc, ${consents.id} desc limit 1) is true`;
