import type { DeliveryChannel } from '@kutu/contract';

/** The last messages sent in development mode, newest first (GET /api/dev/outbox/). */
export interface OutboxEntry {
  channel: DeliveryChannel;
  to: string;
  subject: string;
  text: string;
  sentAt: string;
}

export class Outbox {
  private entries: OutboxEntry[] = [];
  private readonly limit: number;
  constructor(limit = 100) {
    this.limit = limit;
  }
  add(entry: Omit<OutboxEntry, 'sentAt'>) {
    this.entries.unshift({ ...entry, sentAt: new Date().toISOString() });
    this.entries.length = Math.min(this.entries.length, this.limit);
  }
  list(): OutboxEntry[] {
    return [...this.entries];
  }
  /** Drops every message sent to these addresses (an erased person's number and email); emails in any case. */
  forget(addresses: readonly (string | null | undefined)[]) {
    const gone = new Set(addresses.filter((a): a is string => Boolean(a)).map((a) => a.trim().toLowerCase()));
    this.entries = this.entries.filter((e) => !gone.has(e.to.trim().toLowerCase()));
  }
}
