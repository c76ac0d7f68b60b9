import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';

/** A try-out expert's confirmation of a demo photo (`npm run outbreak:demo`). */
export async function addDemoVerdict(db: Db, analysisId: number, at: Date): Promise<void> {
  await db.execute(sql`insert into expert_reviews (analysis_id, verdict, note, reviewed_at)
              values (${analysisId}, 'common_rust', 'Try-out data', ${at})`);
}
