import { createEvent } from 'ics';
import {
  EAST_AFRICA_TIME_ZONE,
  slotLimits,
  type AvailabilitySlot,
  type Booking,
  type BookingStatus,
  type PageQuery,
  type Paginated,
} from '@kutu/contract';
import type { ModuleDeps } from '../../deps.ts';
import { AppError, badRequest, conflict, notFound } from '../../lib/errors.ts';
import { pageWindow, toPage } from '../../lib/pagination.ts';
import { createConsultationsRepo, isUniqueViolation, type BookingRow, type SlotRow } from './consultations.repo.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** A calendar event lasts an hour from the scheduled time, or until the slot ends if that is sooner. */
const MEETING_MS = HOUR;

const eatFormat = new Intl.DateTimeFormat('en-GB', {
  dateStyle: 'medium',
  timeStyle: 'short',
  timeZone: EAST_AFRICA_TIME_ZONE,
});
/** '1 Dec 2026, 09:00 EAT': times in messages are in East Africa Time, zone named. */
export function formatEat(date: Date): string {
  return `${eatFormat.format(date)} EAT`;
}

function slotOut(row: SlotRow): AvailabilitySlot {
  return {
    id: row.id,
    start_time: row.startTime.toISOString(),
    end_time: row.endTime.toISOString(),
    is_active: row.isActive,
    is_booked: Boolean(row.isBooked),
    expert: {
      bio: row.bio ?? '',
      areas_of_expertise: row.areasOfExpertise ?? '',
      certifications: row.certifications ?? '',
      user: { username: row.username },
    },
  };
}

function bookingOut(row: BookingRow): Booking {
  return {
    id: row.id,
    status: row.status,
    selected_date: row.selectedDate?.toISOString() ?? null,
    reason: row.reason,
    created_at: row.createdAt.toISOString(),
    decided_at: row.decidedAt?.toISOString() ?? null,
    farmer: { username: row.farmerUsername, email: row.farmerEmail },
    expert: { username: row.expertUsername },
    slot: { id: row.slotId, start_time: row.slotStart.toISOString(), end_time: row.slotEnd.toISOString() },
  };
}

export function createConsultationsService({
  db,
  clock,
  notifications,
}: Pick<ModuleDeps, 'db' | 'clock' | 'notifications'>) {
  const repo = createConsultationsRepo(db);

  /** The time rules of a new slot; every broken rule is reported on its field. */
  function checkSlotTimes(start: Date, end: Date, now: Date) {
    const fields: Record<string, string> = {};
    if (start.getTime() <= now.getTime()) fields.start_time = 'Start time must be in the future';
    else if (start.getTime() > now.getTime() + slotLimits.maxDaysAhead * DAY) {
      fields.start_time = `Start time must be within ${slotLimits.maxDaysAhead} days from now`;
    }
    const length = end.getTime() - start.getTime();
    if (length <= 0) fields.end_time = 'End time must be after the start time';
    else if (length < slotLimits.minMinutes * MINUTE) {
      fields.end_time = `A slot must last at least ${slotLimits.minMinutes} minutes`;
    } else if (length > slotLimits.maxHours * HOUR) {
      fields.end_time = `A slot can last at most ${slotLimits.maxHours} hours`;
    }
    const first = Object.values(fields)[0];
    if (first) throw badRequest(first, fields);
  }

  return {
    async createSlot(expertId: number, start: Date, end: Date): Promise<AvailabilitySlot> {
      checkSlotTimes(start, end, clock.now());
      const id = await repo.transaction(async (tx) => {
        await repo.lockExpert(tx, expertId);
        const [clash] = await repo.overlappingActiveSlots(tx, expertId, start, end);
        if (clash) {
          const message = `This overlaps your slot from ${formatEat(clash.startTime)} to ${formatEat(clash.endTime)}`;
          throw badRequest(message, { start_time: message });
        }
        return repo.insertSlot(tx, { expertId, startTime: start, endTime: end });
      });
      const row = await repo.findSlot(id);
      return slotOut(row!);
    },

    async expertSlots(expertId: number, page: PageQuery): Promise<Paginated<AvailabilitySlot>> {
      const { limit, offset } = pageWindow(page);
      const { rows, total } = await repo.expertSlots(expertId, limit, offset);
      return toPage(rows.map(slotOut), total, page);
    },

    async bookableSlots(page: PageQuery): Promise<Paginated<AvailabilitySlot>> {
      const { limit, offset } = pageWindow(page);
      const { rows, total } = await repo.bookableSlots(clock.now(), limit, offset);
      return toPage(rows.map(slotOut), total, page);
    },

    async deactivateSlot(expertId: number, slotId: number): Promise<AvailabilitySlot> {
      await repo.transaction(async (tx) => {
        const slot = await repo.lockSlot(tx, slotId);
        // Another expert's slot is answered like a missing one: no hint that it exists.
        if (!slot || slot.expertId !== expertId) throw notFound('Availability slot not found');
        if (!slot.isActive) throw conflict('This availability slot is already inactive');
        const live = await repo.liveBookingOn(tx, slotId);
        if (live?.status === 'approved') {
          throw conflict('This slot has an approved booking and cannot be deactivated');
        }
        if (live) throw conflict('This slot has a pending booking. Approve or reject it before deactivating the slot');
        await repo.deactivateSlot(tx, slotId);
      });
      return slotOut((await repo.findSlot(slotId))!);
    },

    async book(farmerId: number, slotId: number): Promise<Booking> {
      const now = clock.now();
      let bookingId: number;
      try {
        bookingId = await repo.transaction(async (tx) => {
          const slot = await repo.lockSlot(tx, slotId);
          if (!slot) throw notFound('Availability slot not found');
          if (!slot.isActive) throw conflict('This slot is no longer available');
          if (slot.startTime.getTime() <= now.getTime()) throw conflict('This slot has already started or passed');
          const live = await repo.liveBookingOn(tx, slotId);
          if (live?.farmerId === farmerId) throw conflict('You have already booked this slot');
          if (live) throw conflict('This slot has already been booked');
          return repo.insertBooking(tx, { slotId, farmerId });
        });
      } catch (err) {
        // The partial unique index settles a race that slipped past the checks above.
        if (isUniqueViolation(err, 'bookings_one_live_per_slot')) {
          throw conflict('This slot has already been booked');
        }
        throw err;
      }
      const row = (await repo.findBooking(bookingId))!;
      await notifications.notify(
        row.expertId,
        'booking_requested',
        `${row.farmerUsername} booked your slot on ${formatEat(row.slotStart)}. Approve or reject it under Bookings.`,
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
      await repo.transaction(async (tx) => {
        const b = await repo.lockBooking(tx, input.booking_id);
        if (!b || b.expertId !== expertId) throw notFound('Booking not found');
        if (b.status !== 'pending') throw conflict(`This booking has already been ${b.status}`);
        if (input.action === 'reject') {
          await repo.decideBooking(tx, b.id, {
            status: 'rejected',
            selectedDate: null,
            reason: input.reason ?? null,
            decidedAt: now,
          });
          return;
        }
        const selected = input.selected_date;
        if (!selected) {
          throw badRequest('Choose the scheduled date and time', {
            selected_date: 'Choose the scheduled date and time',
          });
        }
        if (selected.getTime() < b.slotStart.getTime() || selected.getTime() >= b.slotEnd.getTime()) {
          const message = `The scheduled time must be within the slot, from ${formatEat(b.slotStart)} to before ${formatEat(b.slotEnd)}`;
          throw badRequest(message, { selected_date: message });
        }
        if (selected.getTime() <= now.getTime()) {
          const message = 'The scheduled time must be in the future';
          throw badRequest(message, { selected_date: message });
        }
        await repo.decideBooking(tx, b.id, {
          status: 'approved',
          selectedDate: selected,
          reason: null,
          decidedAt: now,
        });
      });
      const row = (await repo.findBooking(input.booking_id))!;
      if (row.status === 'approved') {
        await notifications.notify(
          row.farmerId,
          'booking_approved',
          `${row.expertUsername} approved your booking. Your consultation is scheduled for ${formatEat(row.selectedDate!)}.`,
          { booking_id: row.id, selected_date: row.selectedDate!.toISOString() },
        );
      } else {
        const reason = row.reason ? ` Reason: ${row.reason}` : '';
        await notifications.notify(
          row.farmerId,
          'booking_rejected',
          `${row.expertUsername} could not take your booking for ${formatEat(row.slotStart)}.${reason}`,
          { booking_id: row.id, reason: row.reason },
        );
      }
      return bookingOut(row);
    },

    /** An .ics event for an approved booking, for its farmer or its expert only. */
    async calendar(userId: number, bookingId: number): Promise<{ filename: string; content: string }> {
      const row = await repo.findBooking(bookingId);
      if (!row || (row.farmerId !== userId && row.expertId !== userId)) throw notFound('Booking not found');
      if (row.status !== 'approved' || !row.selectedDate) {
        throw conflict('Only an approved booking can be added to a calendar');
      }
      const start = row.selectedDate.getTime();
      const end = Math.min(start + MEETING_MS, row.slotEnd.getTime());
      const other = userId === row.farmerId ? `expert ${row.expertUsername}` : `farmer ${row.farmerUsername}`;
      const { error, value } = createEvent({
        uid: `kutu-booking-${row.id}@kutu`,
        title: `Kutu consultation with ${other}`,
        description: `Consultation booked on Kutu by ${row.farmerUsername} with expert ${row.expertUsername}. Scheduled for ${formatEat(row.selectedDate)}.`,
        start,
        startInputType: 'utc',
        startOutputType: 'utc',
        end,
        endInputType: 'utc',
        endOutputType: 'utc',
        status: 'CONFIRMED',
        busyStatus: 'BUSY',
        productId: 'kutu/consultations',
        organizer: { name: row.expertUsername },
      });
      if (error || !value) throw new AppError('INTERNAL_ERROR', 'The calendar file could not be made', 500);
      return { filename: `kutu-consultation-${row.id}.ics`, content: value };
    },
  };
}
export type ConsultationsService = ReturnType<typeof createConsultationsService>;
