import { type SQL, sql } from 'drizzle-orm';

/**
 * The claim both `claim` and `claimSame` make (delivery.repo.ts): up to `limit` due rows that also meet
 * `narrow` (SQL that starts with `and`, or empty), taken for `leaseMs`, skipping rows another worker's claim
 * has locked. `before` is a `with` to run with it, or empty. `withBody` false leaves out each row's body:
 * `claimSame` knows it already (its rows all have one body), and a body is over half of a claimed row's
 * bytes (147 of 260 for an alert), read out of the database and parsed here a million times.
 */
export const claimSql = (
  now: Date,
  limit: number,
  leaseMs: number,
  narrow: SQL,
  { before = sql.empty(), withBody = true }: { before?: SQL; withBody?: boolean } = {},
) =>
  // A row claimed before whose bulk request left (delivery_posts) counts its one part as posted.
  sql`${before} update deliveries set state = 'sending', attempts = attempts + 1,
        lease_until = ${new Date(now.getTime() + leaseMs).toISOString()}::timestamptz,
        parts_posted = case when attempts = 0 then parts_posted
          when exists (select 1 from delivery_posts p where p.delivery_ids @> array[deliveries.id])
            then greatest(parts_posted, 1)
          else parts_posted end
      where id in (select id from deliveries
        where state in ('waiting', 'sending') and next_at <= ${now.toISOString()}::timestamptz
          and (state = 'waiting' or lease_until < ${now.toISOString()}::timestamptz)
          ${narrow}
        order by next_at, id limit ${limit} for update skip locked)
      returning id, user_id as "userId", address, language, channel, kind, ${withBody ? sql`body,` : sql.empty()}
        subject, link, attachments,
        attempts, parts_sent as "partsSent", parts_posted as "partsPosted", gateway_id as "gatewayId",
        next_at as "nextAt", lease_until as "leaseUntil"`;

/**
 * Run with a claim: a request's mark past its claim's lease whose rows all ended (its worker died, another
 * claimed and ended them) is no use; a mark in its lease is not looked at (the request's own end deletes it).
 */
export const unusedMarksSql = (now: Date) =>
  sql`with unused as (delete from delivery_posts p where p.lease_until < ${now.toISOString()}::timestamptz
        and not exists (select 1 from deliveries d where d.id = any(p.delivery_ids) and d.state = 'sending'))`;
