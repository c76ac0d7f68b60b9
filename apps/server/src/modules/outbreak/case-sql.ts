import { sql } from 'drizzle-orm';
import { DISTRICT_SETTLE_DAYS } from '@kutu/contract';

/** The state of an analysis: the expert's verdict wins; without one, the model's confident rust. */
export const caseStateSql = sql`case
  when r.verdict = 'common_rust' then 'confirmed'
  when r.verdict in ('healthy', 'other_disease', 'not_leaf') then 'none'
  when a.outcome = 'diagnosis' and a.rust_class = 'common_rust' and not a.unsure then 'reported'
  else 'none' end`;

/**
 * The district a photo (`a`) counts at: the one its farmer (`u`) had settled in when it was taken
 * (docs/decisions/0137). A changed district counts only DISTRICT_SETTLE_DAYS after the change, as for walks
 * (0127); a photo taken before that counts at `district_before`, the district surveillance still goes by.
 */
export const settledDistrictSql = sql`(case when u.district_changed_at is not null
  and a.created_at < u.district_changed_at + ${DISTRICT_SETTLE_DAYS}::int * interval '1 day'
  then u.district_before else u.district end)`;
