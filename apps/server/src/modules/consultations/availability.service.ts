import { clockMinutes, type AvailabilityRule, type MeetingMode } from '@kutu/contract';
import type { ModuleDeps } from '../../deps.ts';
import type { Db, Tx } from '../../db/client.ts';
import type { availabilityRules } from '../../db/schema/index.ts';
import { type Message, message } from '../../i18n/i18n.ts';
import { conflict, notFound } from '../../lib/errors.ts';
import { minutesToClock, WINDOW_MS, weeklySlotTimes } from './availability.ts';
import { createConsultationsRepo } from './consultations.repo.ts';
import { createConsultationNotices } from './notices.ts';

type RuleRow = typeof availabilityRules.$inferSelect;
/** A slot a rule did not make, with why (written in the reader's language by the reply hook). */
type Skipped = { start_time: string; end_time: string; message: Message };
const HOUR = 60 * 60_000;

function ruleOut(row: RuleRow): AvailabilityRule {
  return {
    id: row.id,
    weekdays: [...row.weekdays].sort(),
    start_time: minutesToClock(row.startMinute),
    end_time: minutesToClock(row.endMinute),
    slot_minutes: row.slotMinutes,
    mode: row.mode,
    place: row.place,
    video_url: row.videoUrl,
    is_active: row.isActive,
  };
}

export interface WeeklyInput {
  weekdays: number[];
  start_time: string;
  end_time: string;
  slot_minutes: number;
  mode: MeetingMode;
  place?: string;
  video_url?: string;
}

/**
 * Weekly availability (docs/decisions/0019): a rule makes slots for the next AVAILABILITY_WINDOW_DAYS
 * days when it is saved, and the upkeep job tops the window up. Generation is idempotent (a rule makes
 * each start time once, even one its expert later deactivated) and never makes a slot that overlaps
 * another active slot of the expert: those are skipped and reported.
 */
export function createAvailabilityService(deps: Pick<ModuleDeps, 'db' | 'clock' | 'delivery' | 'config' | 'lists'>) {
  const repo = createConsultationsRepo(deps.db);
  const notices = createConsultationNotices(deps);
  // New and ended slots change the farmers' bookable list, cached per process (docs/decisions/0025).
  const slotsChanged = () => deps.lists.changed('bookable-slots');

  async function generate(tx: Tx, rule: RuleRow, now: Date) {
    const to = new Date(now.getTime() + WINDOW_MS);
    const made = await repo.ruleStartTimes(tx, rule.id, now, to);
    const busy = await repo.activeSlotsBetween(tx, rule.expertId, now, to);
    let created = 0;
    const skipped: Skipped[] = [];
    for (const { start, end } of weeklySlotTimes(rule, now, to)) {
      if (made.has(start.getTime())) continue;
      const clash = busy.find((b) => b.startTime < end && b.endTime > start);
      if (clash) {
        skipped.push({
          start_time: start.toISOString(),
          end_time: end.toISOString(),
          message: message('success.consultations.overlaps', {
            when: start,
            start: clash.startTime,
            end: clash.endTime,
          }),
        });
        continue;
      }
      const inserted = await repo.insertGeneratedSlot(tx, {
        expertId: rule.expertId,
        ruleId: rule.id,
        startTime: start,
        endTime: end,
        mode: rule.mode,
        place: rule.place,
        videoUrl: rule.videoUrl,
      });
      if (inserted) {
        created += 1;
        busy.push({ startTime: start, endTime: end });
      }
    }
    return { created, skipped };
  }

  return {
    async createRule(expertId: number, input: WeeklyInput) {
      const now = deps.clock.now();
      const saved = await repo.transaction(async (tx) => {
        await repo.lockExpert(tx, expertId);
        const rule = await repo.insertRule(tx, {
          expertId,
          weekdays: [...new Set(input.weekdays)],
          startMinute: clockMinutes(input.start_time),
          endMinute: clockMinutes(input.end_time),
          slotMinutes: input.slot_minutes,
          mode: input.mode,
          place: input.mode === 'farm_visit' ? (input.place ?? null) : null,
          videoUrl: input.mode === 'video' ? (input.video_url ?? null) : null,
        });
        const { created, skipped } = await generate(tx, rule, now);
        const text = message('success.consultations.weeklySaved', {
          count: created,
          weeks: Math.round(WINDOW_MS / (7 * 24 * HOUR)),
          skipped: skipped.length
            ? message('success.consultations.weeklySkipped', { count: skipped.length, first: skipped[0].message })
            : '',
        });
        return { rule: ruleOut(rule), created, skipped, message: text };
      });
      await slotsChanged();
      return saved;
    },

    async listRules(expertId: number) {
      return { results: (await repo.expertRules(expertId)).map(ruleOut) };
    },

    /** Stops a weekly availability: its future free slots go; booked ones stay until decided. */
    async endRule(expertId: number, ruleId: number): Promise<{ message: Message }> {
      const now = deps.clock.now();
      const removed = await repo.transaction(async (tx) => {
        const rule = await repo.findRule(tx, ruleId);
        if (!rule || rule.expertId !== expertId) throw notFound('errors.consultations.ruleNotFound');
        if (!rule.isActive) throw conflict('errors.consultations.ruleStopped');
        return repo.endRule(tx, ruleId, now);
      });
      await slotsChanged();
      return { message: message('success.consultations.weeklyStopped', { count: removed }) };
    },

    /** Tops every active rule's slots up to the window (idempotent; run by the upkeep job). */
    async topUp(): Promise<number> {
      const now = deps.clock.now();
      let created = 0;
      for (const rule of await repo.activeRules()) {
        created += await repo.transaction(async (tx) => {
          await repo.lockExpert(tx, rule.expertId);
          return (await generate(tx, rule, now)).created;
        });
      }
      if (created > 0) await slotsChanged();
      return created;
    },

    /**
     * Sends the reminders that are due, each once: 24 hours before (when the start is still more than
     * an hour away) and 1 hour before. Claiming and marking happen in one statement (see the repo).
     */
    async sendDueReminders(): Promise<number> {
      const now = deps.clock.now();
      const leads = [
        { kind: '24h', leadMs: 24 * HOUR, notBeforeMs: HOUR, lead: message('units.hours', { count: 24 }) },
        { kind: '1h', leadMs: HOUR, notBeforeMs: 0, lead: message('units.hours', { count: 1 }) },
      ] as const;
      let sent = 0;
      for (const { kind, leadMs, notBeforeMs, lead } of leads) {
        // Claimed and told in one transaction: a crash leaves both undone, and the next sweep sends them.
        sent += await deps.delivery.transaction(async (tx, tell) => {
          const inTx = createConsultationsRepo(tx as unknown as Db);
          const ids = await inTx.claimReminders(kind, now, leadMs, notBeforeMs);
          for (const id of ids) {
            const row = await inTx.findBooking(id);
            if (row) await tell(notices.reminders(row, kind, lead));
          }
          return ids.length;
        });
      }
      return sent;
    },
  };
}
