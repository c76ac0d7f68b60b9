import type { Db, Tx } from '../db/client.ts';
import type { StoredMessage } from '../i18n/i18n.ts';

/**
 * What a module may do with the experts' review queue without knowing the review module (follow-ups, by
 * photo or by phone; a field's walk; an officer's week): put an analysis in front of the experts, and count
 * what waits. The review module implements it (modules/review/escalation.service.ts) and services.ts hands
 * it in; the review module itself uses those modules, so they see the queue only as this port and no two
 * modules know each other (docs/CONTRIBUTING.md, `no-two-way-modules`).
 */
export interface ExpertQueue {
  /** Asks the experts about the analysis with `reason`, in `runner`'s transaction; false once decided. */
  escalate(analysisId: number, reason: StoredMessage, now: Date, runner?: Db | Tx): Promise<boolean>;
  /** As escalate, and a decided analysis is undecided again: the farmer says the field got worse since. */
  reopen(analysisId: number, reason: StoredMessage, now: Date, runner?: Db | Tx): Promise<void>;
  /** The photos of a district's farmers waiting for an expert now, and since when the oldest has waited. */
  waitingIn(district: string): Promise<{ waiting: number; oldest: Date | null }>;
}
