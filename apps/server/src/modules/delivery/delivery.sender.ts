import type { Clock } from '../../adapters/clock.ts';
import { render, restoreMessage } from '../../i18n/i18n.ts';
import { DEFAULT_GATEWAY_TIMEOUT_MS } from '../../adapters/sms.ts';
import { shortestLeaseSeconds } from '../../lib/delivery-lease.ts';
import { messagesSent } from '../../lib/metrics.ts';
import type { DeliveryRepo, Recipient } from './delivery.repo.ts';
import type { MessageKind } from '../../lib/deliverer.ts';
import { addressOn, type Channel, type ClaimedDelivery, UnknownChannelError } from './channels.ts';

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
  const concurrency = opts.concurrency ?? 8;
  // Small claims: every row claimed is sent soon after, well inside its lease.
  const batch = opts.batch ?? concurrency * 4;
  const leaseMs = opts.leaseMs ?? shortestLeaseSeconds(DEFAULT_GATEWAY_TIMEOUT_MS) * 1000;
  const log = opts.log ?? (() => {});

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

  async function sendOne(row: Claimed, to: Recipient | undefined): Promise<void> {
    let end: Parameters<DeliveryRepo['finish']>[2];
    let outcome: 'sent' | 'retried' | 'failed' | 'skipped';
    if (!to) {
      end = { state: 'skipped', error: 'No such account' };
      outcome = 'skipped';
    } else {
      try {
        const done = await deliver(row, to);
        if (done.skipped) {
          end = { state: 'skipped', error: done.skipped };
          outcome = 'skipped';
        } else {
          // Sent; a part the gateway got without answering is noted where an error would be.
          end = {
            state: 'sent',
            sentAt: clock.now(),
            gatewayId: done.gatewayId ?? null,
            error: done.unconfirmed ?? null,
          };
          outcome = 'sent';
        }
      } catch (err) {
        const reason = err instanceof Error ? err.message : String(err);
        // A channel's error may say it is for good (`permanent`: a refused number, an unknown channel).
        const permanent = err instanceof Error && 'permanent' in err && err.permanent === true;
        if (permanent || row.attempts >= MAX_ATTEMPTS) {
          end = { state: 'failed', error: reason };
          outcome = 'failed';
        } else {
          end = {
            state: 'waiting',
            error: reason,
            nextAt: new Date(clock.now().getTime() + RETRY_AFTER_MS[row.attempts - 1]),
          };
          outcome = 'retried';
        }
      }
    }
    messagesSent.inc({ channel: row.channel, outcome });
    // Another worker took the row after this one's lease ran out: it records the end.
    if (!(await repo.finish(row.id, row.attempts, end)))
      log(`delivery ${row.id}: claim lost before its end was recorded`);
  }

  /** Set by stop(): no new claim, no new send; the sends already started finish and are recorded. */
  let stopping = false;

  /** Sends every row due now, a batch at a time; returns how many rows were handled. */
  async function sendDue(): Promise<number> {
    let handled = 0;
    for (;;) {
      if (stopping) return handled;
      // Before the claim's query: a slow query must not stretch the time a send may still start.
      const claimedAt = performance.now();
      const rows = await repo.claim(clock.now(), batch, leaseMs);
      if (rows.length === 0) return handled;
      const people = await repo.recipients([...new Set(rows.flatMap((r) => (r.userId === null ? [] : [r.userId])))]);
      // A number without an account is its row's own address and language.
      const recipientOf = (row: Claimed) =>
        row.userId === null
          ? row.address && row.language
            ? repo.numberOnly(row.address, row.language)
            : undefined
          : people.get(row.userId);
      let next = 0;
      const lane = async () => {
        while (next < rows.length) {
          const row = rows[next++];
          // A send starts only in the first half of the claim's lease (a slow pass on a loaded machine):
          // the lease is at least twice the longest send, so a send started here ends before another
          // worker may take the row, and two living workers never both send it.
          // A stopping process gives its rows back at once rather than send them into its forced exit.
          if (stopping || performance.now() - claimedAt > leaseMs / 2) {
            await repo.release(row.id, row.attempts).catch((err) => log(`delivery ${row.id} not released`, err));
            continue;
          }
          await sendOne(row, recipientOf(row)).catch((err) => log(`delivery ${row.id} not recorded`, err));
        }
      };
      await Promise.all(Array.from({ length: Math.min(concurrency, rows.length) }, lane));
      handled += rows.length;
      if (rows.length < batch) return handled;
    }
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
