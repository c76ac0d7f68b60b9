/**
 * What the benches fill their temporary PostgreSQL with, set-based (one INSERT … SELECT over generate_series
 * a table, so ten million rows take minutes, not hours), shared so that bench/bulletin.ts and bench/outbreak.ts
 * measure over the same shape of data.
 */
import type { Database } from '../apps/server/src/db/client.ts';

/**
 * `count` photo analyses spread over the `farmers` farmers whose ids follow on from `firstFarmer`, their dates
 * over the `days` days before now; each deterministic by its number: a third confident common rust, a third
 * healthy, a third another disease, one in 17 unsure; three in five maize, one in five beans, one in five
 * no crop named.
 */
export function seedAnalyses(
  db: Database,
  { firstFarmer, farmers, count, days }: { firstFarmer: number; farmers: number; count: number; days: number },
) {
  return db.execute(
    `insert into analyses (user_id, image_path, outcome, rust_class, confidence, unsure, probabilities, model_version, crop, created_at)
     select $1 + (i * 7919) % $2, 'analyses/bench.jpg', 'diagnosis',
       case when i % 3 = 0 then 'common_rust' when i % 3 = 1 then 'healthy' else 'other_disease' end,
       0.9, i % 17 = 0, '{"common_rust":0.9,"healthy":0.05,"other_disease":0.05}'::jsonb, 'v-bench',
       case when i % 5 < 3 then 'maize' when i % 5 = 3 then 'beans' else null end,
       now() - ((i * 104729) % ($4::int * 86400)) * interval '1 second'
     from generate_series(1::bigint, $3::bigint) as i`,
    [firstFarmer, farmers, count, days],
  );
}

/**
 * `expert`'s verdict on a fifth of the common-rust analyses (by id): "healthy" on every tenth id, the rust
 * confirmed on the rest.
 */
export function seedVerdicts(db: Database, expert: number) {
  return db.execute(
    `insert into expert_reviews (analysis_id, reviewer_id, verdict, reviewed_at)
     select id, $1, case when id % 10 = 0 then 'healthy' else 'common_rust' end, now()
     from analyses where rust_class = 'common_rust' and id % 5 = 0`,
    [expert],
  );
}
