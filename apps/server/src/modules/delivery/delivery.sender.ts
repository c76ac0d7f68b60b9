import type { Clock } from '../../adapters/clock.ts';
import { render, restoreMessage } from '../../i18n/i18n.ts';
import { DEFAULT_GATEWAY_TIMEOUT_MS } from '../../adapters/sms.ts';
import { shortestLeaseSeconds } from '../../lib/delivery-lease.ts';
import { messagesSent } from '../../lib/metrics.ts';
import type { ClaimedDelivery, DeliveryRepo, Recipient } from './delivery.repo.ts';
import type { MessageKind } from '../../lib/deliverer.ts';
import { addressOn, type BulkEnd, type Channel, UnknownChannelError } from './channels.ts';

/** Waits after the 1st, 2nd, … failed send of a row; after the last, it fails for good. */
export const RETRY_AFTER_MS = [20_000, 2 * 60_000, 10 * 60_000, 60 * 60_000, 6 * 60 * 60_000];
export const MAX_ATTEMPTS = RETRY_AFTER_MS.length + 1;

export interface SenderOptions {
  /** Rows claimed at a time. */
  batch?: number;
  /** Sends in flight at once in this process. */
  concurrency?: number;
  /**
   * How long a claim holds: a worker that died holding rows gives them up after this. At least twice the
   * longest send (lib/delivery-lease.ts; config.ts derives it from the gateway's timeout).
   */
  leaseMs?: number;
  /**
   * Rows of one shared SMS claimed at a time for bulk requests (docs/decisions/0130): at least the
   * channel's bulk size; by default enough for one full request in every lane (`concurrency`).
   */
  bulkRows?: number;
  /**
   * Claims being sent at once (docs/decisions/0139): the next claim is taken and read while the last
   * one's requests wait on the gateway. Sends in flight stay within `concurrency` across all of them.
   */
  passes?: number;
  /** Pause between passes when nothing is due. */
  idleMs?: number;
  log?: (msg: string, err?: unknown) => void;
}

type Claimed = ClaimedDelivery;

/**
 * The delivery worker (docs/decisions/0050): claims due outbox rows, sends them, and records each
 * send's end on its row: sent (with the gateway's id), retry later, failed for good, or skipped.
 */
export function createSender(
  deps: { repo: DeliveryRepo; clock: Clock; channels: Record<string, Channel> },
  opts: SenderOptions = {},
) {
  const { repo, clock, channels } = deps;
  // A national alert's bulk requests each wait on the gateway (~0.7 s): 32 in flight, of 1,000 numbers
  // each, hand a million SMS over within a minute on a 2-core machine (DELIVERY_SENDS_IN_FLIGHT, 0139).
  const concurrency = opts.concurrency ?? 32;
  // Small claims: every row claimed is sent soon after, well inside its lease.
  const batch = opts.batch ?? concurrency * 4;
  const leaseMs = opts.leaseMs ?? shortestLeaseSeconds(DEFAULT_GATEWAY_TIMEOUT_MS) * 1000;
  const log = opts.log ?? (() => {});
  const largestBulk = Math.max(1, ...Object.values(channels).map((c) => c.bulk?.size ?? 1));
  const bulkRows = opts.bulkRows ?? concurrency * largestBulk;
  const passes = opts.passes ?? 2;

  // One count of sends in flight for every claim being sent (`concurrency`).
  let inFlight = 0;
  const waitingForLane: (() => void)[] = [];
  async function inLane(run: () => Promise<void>): Promise<void> {
    while (inFlight >= concurrency) await new Promise<void>((resolve) => waitingForLane.push(resolve));
    inFlight += 1;
    try {
      await run();
    } finally {
      inFlight -= 1;
      waitingForLane.shift()?.();
    }
  }

  // A body's JSON, once per body object: a claim's rows of one text share one (claimSame), where each
  // row's body was made into JSON again, a million times at a national send (docs/decisions/0140).
  const bodyJson = new WeakMap<object, string>();
  const jsonOf = (body: unknown) => {
    if (typeof body !== 'object' || body === null) return JSON.stringify(body);
    let json = bodyJson.get(body);
    if (json === undefined) {
      json = JSON.stringify(body);
      bodyJson.set(body, json);
    }
    return json;
  };

  /** Sends one row by its channel's record; throws what the channel threw. Returns the gateway's id, or why it was not sent. */
  async function deliver(
    row: Claimed,
    to: Recipient,
  ): Promise<{ gatewayId?: string | null; unconfirmed?: string; skipped?: string }> {
    const channel = Object.hasOwn(channels, row.channel) ? channels[row.channel] : undefined;
    if (!channel) throw new UnknownChannelError(row.channel);
    const allowed = channel.allowed(to, row.kind as MessageKind);
    if (allowed !== true) return { skipped: allowed };
    const address = addressOn(channel, to);
    if (!address) return { skipped: `No ${row.channel} address` };
    const text = render(to.language, restoreMessage(row.body));
    return channel.send(row, { address, language: to.language }, text);
  }

  type End = Parameters<DeliveryRepo['finish']>[2];
  type Outcome = 'sent' | 'retried' | 'failed' | 'skipped';

  /** A send's end as its row records it: sent, skipped, retried later or failed for good (what it threw). */
  function endOf(
    row: Claimed,
    done: { gatewayId?: string | null; unconfirmed?: string; skipped?: string } | { error: unknown },
  ): { end: End; outcome: Outcome } {
    if ('error' in done && done.error !== undefined) {
      const err = done.error;
      const reason = err instanceof Error ? err.message : String(err);
      // A channel's error may say it is for good (`permanent`: a refused number, an unknown channel).
      const permanent = err instanceof Error && 'permanent' in err && err.permanent === true;
      if (permanent || row.attempts >= MAX_ATTEMPTS)
        return { end: { state: 'failed', error: reason }, outcome: 'failed' };
      const nextAt = new Date(clock.now().getTime() + RETRY_AFTER_MS[row.attempts - 1]);
      return { end: { state: 'waiting', error: reason, nextAt }, outcome: 'retried' };
    }
    const sent = done as { gatewayId?: string | null; unconfirmed?: string; skipped?: string };
    if (sent.skipped) return { end: { state: 'skipped', error: sent.skipped }, outcome: 'skipped' };
    // Sent; a part the gateway got without answering is noted where an error would be.
    return {
      end: { state: 'sent', sentAt: clock.now(), gatewayId: sent.gatewayId ?? null, error: sent.unconfirmed ?? null },
      outcome: 'sent',
    };
  }

  async function sendOne(row: Claimed, to: Recipient | undefined): Promise<void> {
    let ended: { end: End; outcome: Outcome };
    if (!to) ended = { end: { state: 'skipped', error: 'No such account' }, outcome: 'skipped' };
    else {
      try {
        ended = endOf(row, await deliver(row, to));
      } catch (err) {
        ended = endOf(row, { error: err });
      }
    }
    messagesSent.inc({ channel: row.channel, outcome: ended.outcome });
    // Another worker took the row after this one's lease ran out: it records the end.
    if (!(await repo.finish(row.id, row.attempts, ended.end)))
      log(`delivery ${row.id}: claim lost before its end was recorded`);
  }

  /**
   * One bulk request (docs/decisions/0130): `text` to every row of `members`, each row's end recorded
   * from the gateway's word on its own number, all in one statement. A request refused as a whole is each
   * row's error: each is retried, or failed, on its own schedule.
   */
  async function sendBatch(
    channel: Channel & { bulk: NonNullable<Channel['bulk']> },
    members: { row: Claimed; address: string }[],
    text: string,
  ): Promise<void> {
    let results: BulkEnd[];
    try {
      results = await channel.bulk.send(members, text);
    } catch (err) {
      results = members.map(() => ({ error: err as Error }));
    }
    const outcomes = new Map<Outcome, number>();
    const ends = members.map(({ row }, i) => {
      const { end, outcome } = endOf(row, results[i] ?? { error: new Error('No answer for this row') });
      outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
      return { id: row.id, attempts: row.attempts, ...end };
    });
    for (const [outcome, n] of outcomes) messagesSent.inc({ channel: members[0]!.row.channel, outcome }, n);
    const recorded = await repo.finishMany(ends);
    if (recorded < ends.length) log(`delivery: ${ends.length - recorded} claims lost before their ends were recorded`);
  }

  /** A claim's rows as units of work: bulk requests of rows with the same text, and single rows. */
  function unitsOf(rows: Claimed[], recipientOf: (row: Claimed) => Recipient | undefined) {
    const units: { rows: Claimed[]; run: () => Promise<void> }[] = [];
    const single = (row: Claimed) => units.push({ rows: [row], run: () => sendOne(row, recipientOf(row)) });
    // Each text in each language rendered once, and whether it fits one bulk SMS part, counted once.
    const rendered = new Map<string, { text: string; fits: boolean }>();
    const groups = new Map<
      string,
      {
        channel: Channel & { bulk: NonNullable<Channel['bulk']> };
        text: string;
        members: { row: Claimed; address: string }[];
      }
    >();
    for (const row of rows) {
      const channel = Object.hasOwn(channels, row.channel) ? channels[row.channel] : undefined;
      const to = recipientOf(row);
      const address = channel && to && addressOn(channel, to);
      // Only a row not begun (no part sent or posted) that its channel would send now goes in a batch.
      if (
        !channel?.bulk ||
        !to ||
        !address ||
        row.partsSent > 0 ||
        row.partsPosted > 0 ||
        channel.allowed(to, row.kind as MessageKind) !== true
      ) {
        single(row);
        continue;
      }
      const bodyKey = `${row.channel}|${to.language}|${jsonOf(row.body)}`;
      let made = rendered.get(bodyKey);
      if (made === undefined) {
        const text = render(to.language, restoreMessage(row.body));
        made = { text, fits: channel.bulk.fits(text) };
        rendered.set(bodyKey, made);
      }
      const { text, fits } = made;
      if (!fits) {
        single(row);
        continue;
      }
      const key = `${row.channel}|${text}`;
      const group = groups.get(key) ?? {
        channel: channel as Channel & { bulk: NonNullable<Channel['bulk']> },
        text,
        members: [],
      };
      groups.set(key, group);
      group.members.push({ row, address });
    }
    for (const { channel, text, members } of groups.values()) {
      if (members.length === 1) {
        single(members[0]!.row);
        continue;
      }
      // A number once per request (two accounts may share a phone): a second goes in the next request.
      const batches: { row: Claimed; address: string }[][] = [];
      const seen: Set<string>[] = [];
      let open = 0;
      for (const m of members) {
        while (open < batches.length && batches[open]!.length >= channel.bulk.size) open++;
        let i = open;
        while (i < batches.length && (seen[i]!.has(m.address) || batches[i]!.length >= channel.bulk.size)) i++;
        if (i === batches.length) {
          batches.push([]);
          seen.push(new Set());
        }
        batches[i]!.push(m);
        seen[i]!.add(m.address);
      }
      for (const batch of batches) {
        if (batch.length === 1) single(batch[0]!.row);
        else units.push({ rows: batch.map((m) => m.row), run: () => sendBatch(channel, batch, text) });
      }
    }
    return units;
  }

  /**
   * After a claim: an SMS several of its rows share (an alert's, stored once for all) takes more of that
   * text's due rows, up to `bulkRows`, so that each bulk request is full.
   */
  async function claimMore(rows: Claimed[]): Promise<Claimed[]> {
    // Each text's count in the claim, and its last row in the claim's order (next_at, id).
    const counts = new Map<string, { row: Claimed; n: number }>();
    const order = (r: Claimed) => [new Date(r.nextAt).getTime(), r.id] as const;
    for (const row of rows) {
      const channel = Object.hasOwn(channels, row.channel) ? channels[row.channel] : undefined;
      if (!channel?.bulk || row.partsSent > 0 || row.partsPosted > 0) continue;
      const key = `${row.channel}|${jsonOf(row.body)}`;
      const c = counts.get(key) ?? { row, n: 0 };
      const [at, id] = order(row);
      const [lastAt, lastId] = order(c.row);
      if (at > lastAt || (at === lastAt && id > lastId)) c.row = row;
      c.n += 1;
      counts.set(key, c);
    }
    const more: Claimed[] = [];
    for (const { row, n } of counts.values()) {
      const size = channels[row.channel]!.bulk!.size;
      const want = Math.max(size, bulkRows) - n;
      if (n < 2 || want <= 0) continue;
      more.push(...(await repo.claimSame(clock.now(), row.channel, row.body, want, leaseMs, row)));
    }
    return more;
  }

  /** Set by stop(): no new claim, no new send; the sends already started finish and are recorded. */
  let stopping = false;

  /** Claims due rows once and sends them; returns how many it claimed and whether the claim was full. */
  async function sendClaim(): Promise<{ rows: number; full: boolean }> {
    // Before the claim's query: a slow query must not stretch the time a send may still start.
    const claimedAt = performance.now();
    let first = await repo.claim(clock.now(), batch, leaseMs);
    if (first.length === 0) return { rows: 0, full: false };
    let more = await claimMore(first);
    const rows = [...first, ...more];
    // Texts of a few thousand each (a district's advisory, in its languages) fill a few lanes apiece: claim
    // again while there were texts to gather and the lanes' rows are not all taken.
    while (more.length > 0 && first.length === batch && rows.length < bulkRows) {
      first = await repo.claim(clock.now(), batch, leaseMs);
      more = await claimMore(first);
      rows.push(...first, ...more);
    }
    const people = await repo.recipients([...new Set(rows.flatMap((r) => (r.userId === null ? [] : [r.userId])))]);
    // A number without an account is its row's own address and language.
    const recipientOf = (row: Claimed) =>
      row.userId === null
        ? row.address && row.language
          ? repo.numberOnly(row.address, row.language)
          : undefined
        : people.get(row.userId);
    const send = async (unit: { rows: Claimed[]; run: () => Promise<void> }) => {
      // A send starts only in the first half of the claim's lease (a slow pass on a loaded machine, or
      // a wait for a lane): the lease is at least twice the longest send, so a send started here ends
      // before another worker may take the row, and two living workers never both send it.
      // A stopping process gives its rows back at once rather than send them into its forced exit.
      if (stopping || performance.now() - claimedAt > leaseMs / 2) {
        await repo
          .releaseMany(unit.rows.map((r) => ({ id: r.id, attempts: r.attempts })))
          .catch((err) => log(`deliveries ${unit.rows[0]!.id}… not released`, err));
        return;
      }
      await unit.run().catch((err) => log(`delivery ${unit.rows[0]!.id} not recorded`, err));
    };
    await Promise.all(unitsOf(rows, recipientOf).map((unit) => inLane(() => send(unit))));
    return { rows: rows.length, full: first.length === batch };
  }

  /** Sends every row due now, `passes` claims at a time; returns how many rows were handled. */
  async function sendDue(): Promise<number> {
    let handled = 0;
    let more = true;
    const pass = async () => {
      while (more && !stopping) {
        const { rows, full } = await sendClaim();
        handled += rows;
        if (!full) more = false;
      }
    };
    await Promise.all(Array.from({ length: passes }, pass));
    return handled;
  }

  // The loop of a process that sends (JOBS=on): a pass now and then, and at once when woken.
  let running = false;
  let wakeUp: (() => void) | null = null;
  let woken = false;
  let loop: Promise<void> | null = null;

  return {
    sendDue,
    /** Starts sending in this process (idempotent). */
    start() {
      if (running) return;
      running = true;
      stopping = false;
      loop = (async () => {
        while (running) {
          woken = false;
          await sendDue().catch((err) => log('delivery pass failed', err));
          if (!running || woken) continue;
          await new Promise<void>((resolve) => {
            wakeUp = resolve;
            setTimeout(resolve, opts.idleMs ?? 1000).unref();
          });
          wakeUp = null;
        }
      })();
    },
    /** New rows were committed: send them now rather than at the next pass. */
    wake() {
      woken = true;
      wakeUp?.();
    },
    get running() {
      return running;
    },
    /**
     * Stops claiming (this loop and any pass run as a job), gives back the rows claimed but not started,
     * and returns once the sends in flight are recorded: a SIGTERM never cuts a send in half.
     */
    async stop() {
      stopping = true;
      running = false;
      wakeUp?.();
      await loop;
    },
  };
}
