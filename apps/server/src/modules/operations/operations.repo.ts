import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Database } from '../../db/client.ts';
import { deliveryFacts as m } from '../delivery/delivery.service.ts';
import { jobFacts as jobs } from '../training/samples.service.ts';

/** The counts /metrics reads, over the owners' read-only facts (training's jobs, delivery's outbox). */
const dialect = new PgDialect();
const JOBS_BY_STATUS = dialect.sqlToQuery(
  sql`select ${jobs.status} as status, count(*)::int as n from ${jobs} group by ${jobs.status}`,
);
// Outbox rows not sent yet and failed for good, each part by its partial index: sent rows are not scanned.
const MESSAGES_WAITING = dialect.sqlToQuery(
  sql`select channel, state, count(*)::int as n from (
        select ${m.channel} as channel, ${m.state} as state from ${m} where ${m.state} in ('waiting', 'sending')
        union all select ${m.channel}, ${m.state} from ${m} where ${m.state} = 'failed') w
      group by channel, state`,
);

/** The counts of /metrics; none (an empty list) when the database does not answer, so metrics still show. */
export function createOperationsRepo(database: Database) {
  return {
    async jobsByStatus(): Promise<{ status: string; n: number }[]> {
      const rows = await database.execute(JOBS_BY_STATUS.sql, JOBS_BY_STATUS.params).catch(() => ({ rows: [] }));
      return rows.rows.map((r) => ({ status: String(r.status), n: Number(r.n) }));
    },
    async messagesWaiting(): Promise<{ channel: string; state: string; n: number }[]> {
      const rows = await database.execute(MESSAGES_WAITING.sql, MESSAGES_WAITING.params).catch(() => ({ rows: [] }));
      return rows.rows.map((r) => ({ channel: String(r.channel), state: String(r.state), n: Number(r.n) }));
    },
  };
}
