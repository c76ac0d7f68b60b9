import { eq } from 'drizzle-orm';
import { QueryBuilder } from 'drizzle-orm/pg-core';
import { availabilitySlots, bookings } from '../../db/schema/index.ts';

/**
 * A booking with its slot's times and expert as another module's query reads it (the basic phone's next
 * booking), read only: a subquery PostgreSQL folds into the same join of the two tables, so this module
 * alone decides their shape. E.g. `.from(bookingFacts).where(eq(bookingFacts.farmerId, id))`.
 */
export const bookingFacts = new QueryBuilder()
  .select({
    farmerId: bookings.farmerId,
    status: bookings.status,
    selectedDate: bookings.selectedDate,
    expertId: availabilitySlots.expertId,
    startTime: availabilitySlots.startTime,
    endTime: availabilitySlots.endTime,
  })
  .from(bookings)
  .innerJoin(availabilitySlots, eq(availabilitySlots.id, bookings.slotId))
  .as('booking_facts');
