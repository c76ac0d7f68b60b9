import {
  availabilityRuleCreated,
  availabilityRuleList,
  availabilitySlot,
  cancelBookingBody,
  messageReply,
  weeklyAvailabilityBody,
  booking,
  bookingListQuery,
  bookingPage,
  bookSlotBody,
  consultationsApi,
  createSlotBody,
  idParam,
  manageBookingBody,
  pageQuery,
  slotPage,
  expertSlotsPage,
} from '@kutu/contract';
import { z } from 'zod';
import type { App } from '../../deps.ts';
import type { RouteContext } from '../../route-context.ts';
import type { createAvailabilityService } from './availability.service.ts';
import type { ConsultationsService } from './consultations.service.ts';
import { sendJson } from '../../lib/json-text.ts';
import { caller, farmerOrExpert } from '../../plugins/auth.ts';
import { renderedOnSend } from '../../plugins/language.ts';
import { guard } from '../../lib/route-schema.ts';

const tags = ['consultations'];

/**
 * Expert availability slots and farmers' bookings (spec points 2, 4 and 7). The role check runs on
 * `onRequest`, before the body is read and validated, so an anonymous caller gets 401 and a caller of
 * the wrong role 403 whatever they sent.
 */
export function consultationsRoutes(
  app: App,
  {
    services: { consultations: service, availability },
  }: RouteContext<{ consultations: ConsultationsService; availability: ReturnType<typeof createAvailabilityService> }>,
) {
  app.post(
    consultationsApi.rules,
    {
      schema: { tags, body: weeklyAvailabilityBody, response: { 201: availabilityRuleCreated } },
      config: guard('expert'),
    },
    async (req, reply) =>
      reply.status(201).send(renderedOnSend(await availability.createRule(caller(req).userId, req.body))),
  );

  app.get(
    consultationsApi.rules,
    { schema: { tags, response: { 200: availabilityRuleList } }, config: guard('expert') },
    async (req) => availability.listRules(caller(req).userId),
  );

  app.put(
    consultationsApi.endRuleRoute,
    {
      schema: { tags, params: idParam, response: { 200: messageReply } },
      config: guard('expert'),
    },
    async (req) => renderedOnSend(await availability.endRule(caller(req).userId, req.params.id)),
  );

  app.post(
    consultationsApi.slots,
    {
      schema: { tags, body: createSlotBody, response: { 201: availabilitySlot } },
      config: guard('expert'),
    },
    async (req, reply) => {
      const { start_time, end_time, ...meeting } = req.body;
      const slot = await service.createSlot(caller(req).userId, start_time, end_time, meeting);
      return reply.status(201).send(slot);
    },
  );

  app.get(
    consultationsApi.slots,
    {
      schema: { tags, querystring: pageQuery, response: { 200: slotPage } },
      config: guard('expert'),
    },
    async (req) => service.expertSlots(caller(req).userId, req.query),
  );

  app.get(
    consultationsApi.allSlots,
    {
      schema: { tags, querystring: pageQuery, response: { 200: slotPage } },
      config: guard('farmer'),
    },
    async (req, reply) => sendJson(reply, await service.bookableSlots(req.query)),
  );

  app.get(
    consultationsApi.slotsByExpert,
    {
      schema: { tags, querystring: pageQuery, response: { 200: expertSlotsPage } },
      config: guard('farmer'),
    },
    async (req, reply) => sendJson(reply, await service.bookableByExpert(req.query)),
  );

  app.put(
    consultationsApi.endSlotRoute,
    {
      schema: { tags, params: idParam, response: { 200: availabilitySlot } },
      config: guard('expert'),
    },
    async (req) => service.deactivateSlot(caller(req).userId, req.params.id),
  );

  app.post(
    consultationsApi.bookings,
    {
      schema: { tags, body: bookSlotBody, response: { 201: booking } },
      config: guard('farmer'),
    },
    async (req, reply) => {
      const created = await service.book(caller(req).userId, req.body);
      return reply.status(201).send(created);
    },
  );

  app.get(
    consultationsApi.bookings,
    {
      schema: { tags, querystring: bookingListQuery, response: { 200: bookingPage } },
      config: guard('farmer'),
    },
    async (req) => {
      const { status, ...page } = req.query;
      return service.farmerBookings(caller(req).userId, status, page);
    },
  );

  app.get(
    consultationsApi.manageBookings,
    {
      schema: { tags, querystring: bookingListQuery, response: { 200: bookingPage } },
      config: guard('expert'),
    },
    async (req) => {
      const { status, ...page } = req.query;
      return service.expertBookings(caller(req).userId, status, page);
    },
  );

  app.put(
    consultationsApi.manageBookings,
    {
      schema: { tags, body: manageBookingBody, response: { 200: booking } },
      config: guard('expert'),
    },
    async (req) => service.decide(caller(req).userId, req.body),
  );

  app.post(
    consultationsApi.cancelBookingRoute,
    {
      schema: { tags, params: idParam, body: cancelBookingBody, response: { 200: booking } },
      config: guard('farmer', 'expert'),
    },
    async (req) => {
      const { userId, role } = farmerOrExpert(req);
      return service.cancel({ userId, role }, req.params.id, req.body.reason);
    },
  );

  app.get(
    consultationsApi.bookingCalendarRoute,
    {
      schema: {
        tags,
        params: idParam,
        response: { 200: z.string().describe('An iCalendar (.ics) file with one event') },
      },
      config: guard('farmer', 'expert'),
    },
    async (req, reply) => {
      const { filename, content } = await service.calendar(caller(req).userId, req.params.id, await req.language());
      return reply
        .type('text/calendar; charset=utf-8')
        .header('content-disposition', `attachment; filename="${filename}"`)
        .header('cache-control', 'no-store')
        .send(content);
    },
  );
}
