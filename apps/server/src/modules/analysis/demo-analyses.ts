import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';

/** One try-out rust photo of a demo farmer (`npm run outbreak:demo`), flagged `demo`; returns its id. */
export async function addDemoAnalysis(db: Db, userId: number, at: Date): Promise<number> {
  const a = await db.execute(sql`insert into analyses (user_id, image_path, outcome, rust_class, confidence, unsure,
              probabilities, model_version, crop, created_at, demo)
            values (${userId}, 'demo/none.jpg', 'diagnosis', 'common_rust', 0.91, false,
              ${JSON.stringify({ common_rust: 0.91, healthy: 0.05, other_disease: 0.04 })}::jsonb, 'demo', 'maize', ${at}, true)
            returning id`);
  return (a as unknown as { rows: { id: number }[] }).rows[0]!.id;
}
