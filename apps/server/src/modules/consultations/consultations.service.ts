import {
  slotLimits,
  slotPage,
  expertSlotsPage,
  type AnalysisCrop,
  type RustClass,
  type MeetingMode,
  type AvailabilitySlot,
  type Booking,
  type BookingStatus,
  type PageQuery,
  type Paginated,
  type Language,
} from '@kutu/contract';
import type { ModuleDeps } from '../../deps.ts';
import type { Db, Tx } from '../../db/client.ts';
import type { TellFn } from '../../lib/deliverer.ts';
import { badRequest, conflict, notFound } from '../../lib/errors.ts';
import { type Message, message } from '../../i18n/i18n.ts';
import { encodeJson, type JsonText } from '../../lib/json-text.ts';
import { pageWindow, toPage } from '../../lib/pagination.ts';
import { bookingCalendar } from './calendar.ts';
import { createConsultationsRepo, isUniqueViolation, type BookingRow, type SlotRow } from './consultations.repo.ts';
import { createConsultationNotices } from './notices.ts';

/** A booking with its slot as other modules' queries read it (the basic phone's next booking). */
export { bookingFacts } from './facts.repo.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** A slot as its expert sees it; others see the place and link only through an approved booking. */
export function slotOut(row: SlotRow, forOwner: boolean): AvailabilitySlot {
  return {
    id: row.id,
    start_time: row.startTime.toISOString(),
    end_time: row.endTime.toISOString(),
    is_active: row.isActive,
    is_booked: Boolean(row.isBooked),
    mode: row.mode,
    place: forOwner ? row.place : null,
    video_url: forOwner ? row.videoUrl : null,
    rule_id: row.ruleId,
    expert: {
      bio: row.bio ?? '',
      areas_of_expertise: row.areasOfExpertise ?? '',
      certifications: row.certifications ?? '',
      user: { username: row.username },
    },
  };
}

/** Place, link and phone numbers are shared once the booking is approved, and only then. */
function bookingOut(row: BookingRow): Booking {
  const shared = row.status === 'approved';
  return {
    id: row.id,
    status: row.status,
    selected_date: row.selectedDate?.toISOString() ?? null,
    reason: row.reason,
    created_at: row.createdAt.toISOString(),
    decided_at: row.decidedAt?.toISOString() ?? null,
    topic: row.topic,
    analysis:
      row.analysisId === null
        ? null
        : {
            id: row.analysisId,
            rust_class: (row.analysisClass as RustClass | null) ?? null,
            confidence: row.analysisConfidence ?? 0,
            crop: (row.analysisCrop as AnalysisCrop | null) ?? null,
          },
    mode: row.mode,
    place: shared ? row.place : null,
    video_url: shared ? row.videoUrl : null,
    farmer: { username: row.farmerUsername, email: row.farmerEmail, phone: shared ? row.farmerPhone : null },
    expert: { username: row.expertUsername, phone: shared ? row.expertPhone : null },
    slot: { id: row.slotId, start_time: row.slotStart.toISOString(), end_time: row.slotEnd.toISOString() },
    cancelled_by: row.cancelledBy,
    cancelled_at: row.cancelledAt?.toISOString() ?? null,
  };
}

export function createConsultationsService(
  deps: Pick<ModuleDeps, 'db' | 'clock' | 'notifications' | 'delivery' | 'config' | 'lists'>,
) {
  const { db, clock, notifications } = deps;
  const repo = createConsultationsRepo(db);
  const notices = createConsultationNotices(deps);
  const bookablePages = deps.lists.of<JsonText>('bookable-slots');
  const slotsChanged = () => deps.lists.changed('bookable-slots');

  /** The time rules of a new slot; every broken rule is reported on its field. */
  function checkSlotTimes(start: Date, end: Date, now: Date) {
    const fields: Record<string, Message> = {};
    if (start.getTime() <= now.getTime()) fields.start_time = message('errors.consultations.startInFuture');
    else if (start.getTime() > now.getTime() + slotLimits.maxDaysAhead * DAY) {
      fields.start_time = message('errors.consultations.startWithinDays', { days: slotLimits.maxDaysAhead });
    }
    const length = end.getTime() - start.getTime();
    if (length <= 0) fields.end_time = message('errors.consultations.endAfterStart');
    else if (length < slotLimits.minMinutes * MINUTE) {
      fields.end_time = message('errors.consultations.slotMinLength', { minutes: slotLimits.minMinutes });
    } else if (length > slotLimits.maxHours * HOUR) {
      fields.end_time = message('errors.consultations.slotMaxLength', { hours: slotLimits.maxHours });
    }
    const first = Object.values(fields)[0];
    if (first) throw badRequest(first, fields);
  }

  return {
    async createSlot(
      expertId: number,
      start: Date,
      end: Date,
      meeting: { mode: MeetingMode; place?: string; video_url?: string },
    ): Promise<AvailabilitySlot> {
      checkSlotTimes(start, end, clock.now());
      const id = await repo.transaction(async (tx) => {
        await repo.lockExpert(tx, expertId);
        const [clash] = await repo.overlappingActiveSlots(tx, expertId, start, end);
        if (clash) {
          const overlap = message('errors.consultations.overlaps', {
            start: clash.startTime,
            end: clash.endTime,
          });
          throw badRequest(overlap, { start_time: overlap });
        }
        return repo.insertSlot(tx, {
          expertId,
          startTime: start,
          endTime: end,
          mode: meeting.mode,
          place: meeting.mode === 'farm_visit' ? (meeting.place ?? null) : null,
          videoUrl: meeting.mode === 'video' ? (meeting.video_url ?? null) : null,
        });
      });
      await slotsChanged();
      const row = await repo.findSlot(id);
      return slotOut(row!, true);
    },

    async expertSlots(expertId: number, page: PageQuery): Promise<Paginated<AvailabilitySlot>> {
      const { limit, offset } = pageWindow(page);
      const { rows, total } = await repo.expertSlots(expertId, limit, offset);
      return toPage(
        rows.map((r) => slotOut(r, true)),
        total,
        page,
      );
    },

    /**
     * The same for every farmer, so pages are cached until a slot or booking changes (`slotsChanged`)
     * or the soonest bookable slot starts and leaves the list (docs/decisions/0025).
     */
    async bookableSlots(page: PageQuery): Promise<JsonText> {
      const { limit, offset } = pageWindow(page);
      return bookablePages.get(`${limit}:${offset}`, async () => {
        const { rows, total, earliest } = await repo.bookableSlots(clock.now(), limit, offset);
        const slots = toPage(
          rows.map((r) => slotOut(r, false)),
          total,
          page,
        );
        const value = encodeJson(slotPage, slots);
        return { value, bytes: value.json.length, until: earliest?.getTime() };
      });
    },

    /** The same slots grouped by expert, a page of experts; cached like `bookableSlots`. */
    async bookableByExpert(page: PageQuery): Promise<JsonText> {
      const { limit, offset } = pageWindow(page);
      return bookablePages.get(`experts:${limit}:${offset}`, async () => {
        const { experts, rows, total, earliest } = await repo.bookableByExpert(clock.now(), limit, offset);
        const groups = experts.map((expertId) => {
          const own = rows.filter((r) => r.expertId === expertId).map((r) => slotOut(r, false));
          const { expert } = own[0]!;
          return { expert, slots: own.map(({ expert: _, ...slot }) => slot) };
        });
        const value = encodeJson(expertSlotsPage, toPage(groups, total, page));
        return { value, bytes: value.json.length, until: earliest?.getTime() };
      });
    },

    async deactivateSlot(expertId: number, slotId: number): Promise<AvailabilitySlot> {
      await repo.transaction(async (tx) => {
        const slot = await repo.lockSlot(tx, slotId);
        // Another expert's slot is answered like a missing one: no hint that it exists.
        if (!slot || slot.expertId !== expertId) throw notFound('errors.consultations.slotNotFound');
        if (!slot.isActive) throw conflict('errors.consultations.slotAlreadyInactive');
        const live = await repo.liveBookingOn(tx, slotId);
        if (live?.status === 'approved') {
          throw conflict('errors.consultations.slotHasApproved');
        }
        if (live) throw conflict('errors.consultations.slotHasPending');
        await repo.deactivateSlot(tx, slotId);
      });
      await slotsChanged();
      return slotOut((await repo.findSlot(slotId))!, true);
    },

    async book(farmerId: number, input: { slot_id: number; topic: string; analysis_id?: number }): Promise<Booking> {
      const now = clock.now();
      const slotId = input.slot_id;
      // Only the farmer's own analysis; anyone else's is answered like a missing one.
      if (input.analysis_id !== undefined && (await repo.analysisOwner(input.analysis_id)) !== farmerId) {
        throw badRequest('errors.consultations.ownAnalysesOnly', {
          analysis_id: 'errors.consultations.ownAnalysesOnly',
        });
      }
      let bookingId: number;
      try {
        bookingId = await repo.transaction(async (tx) => {
          const slot = await repo.lockSlot(tx, slotId);
          if (!slot) throw notFound('errors.consultations.slotNotFound');
          if (!slot.isActive) throw conflict('errors.consultations.slotUnavailable');
          if (slot.startTime.getTime() <= now.getTime()) throw conflict('errors.consultations.slotPassed');
          const live = await repo.liveBookingOn(tx, slotId);
          if (live?.farmerId === farmerId) throw conflict('errors.consultations.alreadyBookedByYou');
          if (live) throw conflict('errors.consultations.alreadyBooked');
          return repo.insertBooking(tx, {
            slotId,
            farmerId,
            topic: input.topic,
            analysisId: input.analysis_id ?? null,
          });
        });
      } catch (err) {
        // The partial unique index settles a race that slipped past the checks above.
        if (isUniqueViolation(err, 'bookings_one_live_per_slot')) {
          throw conflict('errors.consultations.alreadyBooked');
        }
        throw err;
      }
      await slotsChanged();
      const row = (await repo.findBooking(bookingId))!;
      await notifications.notify(
        row.expertId,
        'booking_requested',
        message('notifications.bookingRequested', {
          farmer: row.farmerUsername,
          when: row.slotStart,
          topic: row.topic,
        }),
        { booking_id: row.id, slot_id: row.slotId },
      );
      return bookingOut(row);
    },

    async expertBookings(expertId: number, status: BookingStatus | undefined, page: PageQuery) {
      const { limit, offset } = pageWindow(page);
      const { rows, total } = await repo.expertBookings(expertId, status, limit, offset);
      return toPage(rows.map(bookingOut), total, page);
    },

    async farmerBookings(farmerId: number, status: BookingStatus | undefined, page: PageQuery) {
      const { limit, offset } = pageWindow(page);
      const { rows, total } = await repo.farmerBookings(farmerId, status, limit, offset);
      return toPage(rows.map(bookingOut), total, page);
    },

    async decide(
      expertId: number,
      input: { booking_id: number; action: 'approve' | 'reject'; selected_date?: Date; reason?: string },
    ): Promise<Booking> {
      const now = clock.now();
      // Decided and told in one transaction: the messages exist if and only if the decision commits.
      const row = await deps.delivery.transaction(async (tx, tell) => {
        const b = await repo.lockBooking(tx, input.booking_id);
        if (!b || b.expertId !== expertId) throw notFound('errors.consultations.bookingNotFound');
        if (b.status !== 'pending')
          throw conflict(
            message('errors.consultations.bookingAlreadyDecided', {
              status: message(`errors.consultations.statuses.${b.status}`),
            }),
          );
        if (input.action === 'reject') {
          await repo.decideBooking(tx, b.id, {
            status: 'rejected',
            selectedDate: null,
            reason: input.reason ?? null,
            decidedAt: now,
          });
          const rejected = (await createConsultationsRepo(tx as unknown as Db).findBooking(b.id))!;
          await tell(notices.rejected(rejected));
          return rejected;
        }
        // The slot fixes the meeting's time: approving without a time confirms the slot's start. A time
        // given (older clients asked for one) must still fall inside the slot.
        const selected = input.selected_date ?? b.slotStart;
        if (selected.getTime() < b.slotStart.getTime() || selected.getTime() >= b.slotEnd.getTime()) {
          const outside = message('errors.consultations.scheduledWithinSlot', {
            start: b.slotStart,
            end: b.slotEnd,
          });
          throw badRequest(outside, { selected_date: outside });
        }
        if (selected.getTime() <= now.getTime()) {
          throw badRequest('errors.consultations.scheduledInFuture', {
            selected_date: 'errors.consultations.scheduledInFuture',
          });
        }
        await repo.decideBooking(tx, b.id, {
          status: 'approved',
          selectedDate: selected,
          reason: null,
          decidedAt: now,
        });
        const approved = (await createConsultationsRepo(tx as unknown as Db).findBooking(b.id))!;
        await tell(notices.approved(approved));
        return approved;
      });
      // A rejection frees the slot (an approval keeps it taken; one rule for both is simpler).
      await slotsChanged();
      return bookingOut(row);
    },

    /**
     * Cancels a live booking before it starts and frees its slot. The farmer may cancel their own;
     * the slot's expert must give a reason. Anyone else gets the same 404 as for a missing booking.
     */
    async cancel(user: { userId: number; role: 'farmer' | 'expert' }, bookingId: number, reason?: string) {
      const now = clock.now();
      const row = await deps.delivery.transaction(async (tx, tell) => {
        const b = await repo.lockBooking(tx, bookingId);
        const own = user.role === 'farmer' ? b?.farmerId === user.userId : b?.expertId === user.userId;
        if (!b || !own) throw notFound('errors.consultations.bookingNotFound');
        if (b.status !== 'pending' && b.status !== 'approved') {
          throw conflict(
            message('errors.consultations.bookingAlready', {
              status: message(`errors.consultations.statuses.${b.status}`),
            }),
          );
        }
        const start = b.selectedDate ?? b.slotStart;
        if (start.getTime() <= now.getTime()) {
          throw conflict('errors.consultations.alreadyStarted');
        }
        if (user.role === 'expert' && !reason) {
          throw badRequest('errors.consultations.reasonRequired', { reason: 'errors.consultations.reasonRequired' });
        }
        await repo.cancelBooking(tx, b.id, user.role, reason ?? null, now);
        const cancelled = (await createConsultationsRepo(tx as unknown as Db).findBooking(bookingId))!;
        await tell(notices.cancelled(cancelled));
        return cancelled;
      });
      await slotsChanged();
      return bookingOut(row);
    },

    /**
     * An expert's account is being erased (the privacy module, in its transaction): their bookings still
     * to come, pending or approved, are cancelled by the expert and each farmer is told. Returns how many.
     */
    async cancelForLeavingExpert(tx: Tx, tell: TellFn, expertId: number, now: Date): Promise<number> {
      const ids = await repo.comingBookingsOfExpert(tx, expertId, now);
      for (const id of ids) {
        await repo.cancelBooking(tx, id, 'expert', null, now);
        await tell(notices.cancelled((await createConsultationsRepo(tx as unknown as Db).findBooking(id))!));
      }
      return ids.length;
    },

    /** Bookable slots changed outside this module (an expert's erased): cached pages go. */
    slotsChanged,

    /** The booking as an .ics file, for its farmer or its expert only; cancelled ones cancel the event. */
    async calendar(
      userId: number,
      bookingId: number,
      language: Language,
    ): Promise<{ filename: string; content: string }> {
      const row = await repo.findBooking(bookingId);
      if (!row || (row.farmerId !== userId && row.expertId !== userId))
        throw notFound('errors.consultations.bookingNotFound');
      if (!row.selectedDate || (row.status !== 'approved' && row.status !== 'cancelled')) {
        throw conflict('errors.consultations.calendarApprovedOnly');
      }
      const viewer = userId === row.farmerId ? 'farmer' : 'expert';
      return {
        filename: `kutu-consultation-${row.id}.ics`,
        content: bookingCalendar(row, viewer, language, clock.now()),
      };
    },
  };
}

export type ConsultationsService = ReturnType<typeof createConsultationsService>;
