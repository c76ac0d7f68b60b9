import { eq } from 'drizzle-orm';
import ICAL from 'ical.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { analyses, users } from '../../db/schema/index.ts';
import { createTestApp, joinSmsParts, type TestContext, testDelivery } from '../../../test/support/app.ts';
import { createUser, type TestUser } from '../../../test/support/users.ts';
import { createMemoryCoordinator } from '../../adapters/coordinator.ts';
import { createListCaches } from '../../lib/list-cache.ts';
import { createAvailabilityService } from './availability.service.ts';
import { consultationsApi, notificationsApi, api } from '@kutu/contract';

const SLOTS = consultationsApi.slots;
const ALL = consultationsApi.allSlots;
const BOOK = consultationsApi.bookings;
const MANAGE = consultationsApi.manageBookings;
const CANCEL = (id: number) => consultationsApi.cancelBooking(id);
const ICS = (id: number) => consultationsApi.bookingCalendar(id);

/** Monday 1 March 2027, 09:00 East Africa Time. */
const NOW = new Date('2027-03-01T06:00:00Z');
const HOUR = 3600_000;

describe('consultations: topic, contacts, cancellation, notifications, calendar', () => {
  let t: TestContext;
  let expert: TestUser;
  let farmer: TestUser;
  let otherFarmer: TestUser;
  let day = 0;
  let phones = 0;

  const phone = () => `+2567010000${String(++phones).padStart(2, '0')}`;
  beforeAll(async () => {
    t = await createTestApp();
    expert = await createUser(t, 'expert', { phone: phone() });
    farmer = await createUser(t, 'farmer', { phone: phone() });
    otherFarmer = await createUser(t, 'farmer', { phone: phone() });
  });
  afterAll(() => t.close());
  beforeEach(() => t.clock.set(NOW));

  const send = (method: 'POST' | 'PUT' | 'GET', url: string, user: TestUser, payload?: object) =>
    t.app.inject({ method, url, headers: user.headers, payload });

  /** A farm-visit slot 10:00–11:00 EAT on a fresh day from 3 March 2027. */
  async function slot() {
    day += 1;
    const date = `2027-03-${String(2 + day).padStart(2, '0')}`;
    const res = await send('POST', SLOTS, expert, {
      start_time: `${date} 10:00`,
      end_time: `${date} 11:00`,
      mode: 'farm_visit',
      place: 'Nakaseke, by the church; bring, please, the seed packet',
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: number; start_time: string };
  }
  async function approvedBooking(topic = 'Orange spots on my maize') {
    const s = await slot();
    const b = await send('POST', BOOK, farmer, { slot_id: s.id, topic });
    expect(b.statusCode, b.body).toBe(201);
    const a = await send('PUT', MANAGE, expert, {
      booking_id: b.json().id,
      action: 'approve',
      selected_date: s.start_time,
    });
    expect(a.statusCode, a.body).toBe(200);
    return { slot: s, booking: a.json() as { id: number; [k: string]: unknown } };
  }
  const smsTo = (user: TestUser) =>
    joinSmsParts(t.outbox.list().filter((m) => m.channel === 'sms' && m.to === user.phone));

  it('requires a topic and attaches only the farmer’s own analysis', async () => {
    const s = await slot();
    const noTopic = await send('POST', BOOK, farmer, { slot_id: s.id, topic: ' ' });
    expect(noTopic.statusCode).toBe(400);
    expect(noTopic.json().error.fields.topic).toBe('Say in a few words what you want to talk about');
    const [theirs, mine] = await t.deps.database.db
      .insert(analyses)
      .values(
        [otherFarmer, farmer].map((f) => ({
          userId: f.id,
          imagePath: 'analyses/x.jpg',
          outcome: 'diagnosis' as const,
          rustClass: 'common_rust',
          confidence: 0.87,
          probabilities: { common_rust: 0.87, healthy: 0.1, other_disease: 0.03 },
          modelVersion: 'test',
        })),
      )
      .returning({ id: analyses.id });
    const stolen = await send('POST', BOOK, farmer, { slot_id: s.id, topic: 'Rust?', analysis_id: theirs.id });
    expect(stolen.statusCode).toBe(400);
    expect(stolen.json().error.fields.analysis_id).toBe('Choose one of your own analyses');
    const ok = await send('POST', BOOK, farmer, { slot_id: s.id, topic: 'Rust?', analysis_id: mine.id });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json()).toMatchObject({
      topic: 'Rust?',
      analysis: { id: mine.id, rust_class: 'common_rust', confidence: 0.87 },
    });
  });

  it('shares the place and both phone numbers only once approved', async () => {
    const s = await slot();
    const b = await send('POST', BOOK, farmer, { slot_id: s.id, topic: 'Bean rust' });
    expect(b.json()).toMatchObject({
      mode: 'farm_visit',
      place: null,
      farmer: { phone: null },
      expert: { phone: null },
    });
    const browse = await send('GET', `${ALL}?page_size=100`, otherFarmer);
    for (const x of browse.json().results) expect(x.place).toBeNull();
    await send('PUT', MANAGE, expert, { booking_id: b.json().id, action: 'approve', selected_date: s.start_time });
    const mine = (await send('GET', `${BOOK}?page_size=100`, farmer))
      .json()
      .results.find((x: { id: number }) => x.id === b.json().id);
    expect(mine).toMatchObject({ place: expect.stringContaining('Nakaseke'), expert: { phone: expert.phone } });
    const theirs = (await send('GET', `${MANAGE}?page_size=100`, expert))
      .json()
      .results.find((x: { id: number }) => x.id === b.json().id);
    expect(theirs).toMatchObject({
      place: expect.stringContaining('Nakaseke'),
      farmer: { phone: farmer.phone },
      topic: 'Bean rust',
    });
  });

  it('tells the farmer of an approval by SMS and email as well as in the app', async () => {
    const { booking } = await approvedBooking('Maize leaves turning brown');
    const sms = smsTo(farmer)[0];
    expect(sms.text).toMatch(/^Kutu: consultation confirmed .* 10:00 EAT, farm visit at Nakaseke/);
    expect(sms.text).toContain(expert.phone);
    const mail = await t.smtp.lastMailTo(farmer.email);
    expect(mail.subject).toBe('Your Kutu consultation is confirmed');
    expect(mail.text).toContain('"Maize leaves turning brown"');
    expect(mail.text).toContain(`Expert's phone: ${expert.phone}`);
    expect(mail.text).toContain('/account/addresses/my-bookings');
    const notes = await send('GET', `${notificationsApi.list}?page_size=50`, farmer);
    expect(notes.json().results.some((n: { data: { booking_id?: number } }) => n.data.booking_id === booking.id)).toBe(
      true,
    );
  });

  it('tells the farmer of a rejection by SMS and email', async () => {
    const s = await slot();
    const b = await send('POST', BOOK, otherFarmer, { slot_id: s.id, topic: 'Leaf blight' });
    await send('PUT', MANAGE, expert, { booking_id: b.json().id, action: 'reject', reason: 'Away that day' });
    expect(smsTo(otherFarmer)[0].text).toMatch(/^Kutu: .* could not take your booking/);
    expect((await t.smtp.lastMailTo(otherFarmer.email)).text).toContain('Reason: Away that day');
  });

  it('tells a farmer without an email of the decision by SMS only, and the calendar file still works', async () => {
    const phoneOnly = await createUser(t, 'farmer', { phone: phone() });
    await t.deps.database.db.update(users).set({ email: null }).where(eq(users.id, phoneOnly.id));
    const mailsBefore = t.smtp.inbox.length;
    const s = await slot();
    const b = await send('POST', BOOK, phoneOnly, { slot_id: s.id, topic: 'Rust on beans' });
    expect(b.statusCode, b.body).toBe(201);
    const a = await send('PUT', MANAGE, expert, {
      booking_id: b.json().id,
      action: 'approve',
      selected_date: s.start_time,
    });
    expect(a.statusCode, a.body).toBe(200);
    expect(smsTo(phoneOnly)[0].text).toMatch(/^Kutu: consultation confirmed/);
    const list = await send('GET', `${MANAGE}?page_size=100`, expert);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().results.find((x: { id: number }) => x.id === b.json().id).farmer.email).toBeNull();
    const ics = await send('GET', ICS(b.json().id), phoneOnly);
    expect(ics.statusCode, ics.body).toBe(200);
    expect(t.smtp.inbox.slice(mailsBefore).some((m) => m.to === phoneOnly.email)).toBe(false);
  });

  describe('cancellation', () => {
    it('lets the farmer cancel an approved booking before the start; the slot is bookable again and the expert is told', async () => {
      const { slot: s, booking } = await approvedBooking();
      expect((await send('POST', CANCEL(booking.id), otherFarmer, {})).statusCode).toBe(404);
      const res = await send('POST', CANCEL(booking.id), farmer, {});
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({
        status: 'cancelled',
        cancelled_by: 'farmer',
        place: null,
        expert: { phone: null },
      });
      expect((await send('POST', CANCEL(booking.id), farmer, {})).json().error.message).toBe(
        'This booking is already cancelled',
      );
      const open = await send('GET', `${ALL}?page_size=100`, otherFarmer);
      expect(open.json().results.map((x: { id: number }) => x.id)).toContain(s.id);
      expect(smsTo(expert)[0].text).toMatch(/^Kutu: Farmer .* cancelled the consultation on/);
      expect((await t.smtp.lastMailTo(expert.email)).text).toContain('The slot is open for booking again.');
      const rebook = await send('POST', BOOK, otherFarmer, { slot_id: s.id, topic: 'Rust' });
      expect(rebook.statusCode, rebook.body).toBe(201);
    });

    it('lets the farmer cancel a pending booking, but not once it has started', async () => {
      const s = await slot();
      const b = (await send('POST', BOOK, farmer, { slot_id: s.id, topic: 'Rust' })).json();
      t.clock.set(new Date(new Date(s.start_time).getTime() + 60_000));
      const late = await send('POST', CANCEL(b.id), farmer, {});
      expect(late.statusCode).toBe(409);
      expect(late.json().error.message).toBe('This consultation has already started, so it can no longer be cancelled');
      t.clock.set(NOW);
      expect((await send('POST', CANCEL(b.id), farmer, {})).statusCode).toBe(200);
    });

    it('makes the expert give a reason, and tells the farmer', async () => {
      const { booking } = await approvedBooking();
      const other = await createUser(t, 'expert');
      expect((await send('POST', CANCEL(booking.id), other, { reason: 'x' })).statusCode).toBe(404);
      const none = await send('POST', CANCEL(booking.id), expert, {});
      expect(none.statusCode).toBe(400);
      expect(none.json().error.fields.reason).toBe('Tell the farmer why you cancel');
      const res = await send('POST', CANCEL(booking.id), expert, { reason: 'Vehicle broke down' });
      expect(res.json()).toMatchObject({ status: 'cancelled', cancelled_by: 'expert', reason: 'Vehicle broke down' });
      expect(smsTo(farmer)[0].text).toMatch(/cancelled the consultation on .*Reason: Vehicle broke down/);
      expect((await t.smtp.lastMailTo(farmer.email)).subject).toBe('A Kutu consultation was cancelled');
    });
  });

  describe('reminders', () => {
    const service = () =>
      createAvailabilityService({
        ...t.deps,
        db: t.deps.database.db,
        delivery: testDelivery(t),
        lists: createListCaches(createMemoryCoordinator(), t.clock),
      });

    it('sends the 24-hour and the 1-hour reminder to both sides once each, by SMS and email', async () => {
      const { slot: s, booking } = await approvedBooking('Reminder topic');
      const start = new Date(s.start_time).getTime();
      const reminders = () => smsTo(farmer).filter((m) => m.text.startsWith('Kutu reminder')).length;
      const before = reminders();
      t.clock.set(new Date(start - 25 * HOUR));
      await service().sendDueReminders();
      expect(reminders()).toBe(before);
      t.clock.set(new Date(start - 23 * HOUR));
      await service().sendDueReminders();
      await service().sendDueReminders();
      expect(reminders()).toBe(before + 1);
      expect(smsTo(expert)[0].text).toContain(`Farmer ${farmer.username} ${farmer.phone}`);
      expect((await t.smtp.lastMailTo(farmer.email)).subject).toBe('Reminder: Kutu consultation in 24 hours');
      t.clock.set(new Date(start - 30 * 60_000));
      await service().sendDueReminders();
      await service().sendDueReminders();
      expect(reminders()).toBe(before + 2);
      expect((await t.smtp.lastMailTo(expert.email)).subject).toBe('Reminder: Kutu consultation in 1 hour');
      expect(booking.id).toBeGreaterThan(0);
    });

    it('sends no 24-hour reminder for a booking approved within the last day', async () => {
      const s = await slot();
      const start = new Date(s.start_time).getTime();
      t.clock.set(new Date(start - 5 * HOUR));
      const b = (await send('POST', BOOK, otherFarmer, { slot_id: s.id, topic: 'Late booking' })).json();
      await send('PUT', MANAGE, expert, { booking_id: b.id, action: 'approve', selected_date: s.start_time });
      const count = () => smsTo(otherFarmer).filter((m) => m.text.startsWith('Kutu reminder')).length;
      const before = count();
      await service().sendDueReminders();
      expect(count()).toBe(before);
      t.clock.set(new Date(start - 50 * 60_000));
      await service().sendDueReminders();
      expect(count()).toBe(before + 1);
    });

    it('runs as a job in the job queue', async () => {
      const { slot: s } = await approvedBooking('Job topic');
      t.clock.set(new Date(new Date(s.start_time).getTime() - 20 * HOUR));
      await t.deps.jobs.startWorkers();
      await t.deps.jobs.send('consultations-upkeep', {});
      await expect
        .poll(() => smsTo(farmer).some((m) => m.text.startsWith('Kutu reminder')), { timeout: 15_000 })
        .toBe(true);
    });
  });

  describe('calendar file', () => {
    function parse(text: string) {
      const cal = new ICAL.Component(ICAL.parse(text));
      const event = cal.getFirstSubcomponent('vevent')!;
      return { cal, event };
    }

    it('is valid RFC 5545 for both sides, and a cancellation cancels the same event', async () => {
      const topic = `Rust; spots, and "yellow" leaves on maize near the road — ${'x'.repeat(40)}`;
      const { booking } = await approvedBooking(topic);
      const forFarmer = await send('GET', ICS(booking.id), farmer);
      expect(forFarmer.statusCode, forFarmer.body).toBe(200);
      for (const line of forFarmer.body.split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
      const { cal, event } = parse(forFarmer.body);
      expect(cal.getFirstPropertyValue('method')).toBe('REQUEST');
      expect(event.getFirstPropertyValue('uid')).toBe(`kutu-booking-${booking.id}@kutu`);
      expect(event.getFirstPropertyValue('sequence')).toBe(0);
      expect(event.getFirstPropertyValue('status')).toBe('CONFIRMED');
      expect(event.getFirstPropertyValue('dtstamp')).toBeTruthy();
      const organizer = event.getFirstProperty('organizer')!;
      expect(String(organizer.getFirstValue()).toLowerCase()).toBe(`mailto:${expert.email}`);
      expect(organizer.getParameter('cn')).toBe(expert.username);
      expect(String(event.getFirstPropertyValue('attendee')).toLowerCase()).toBe(`mailto:${farmer.email}`);
      expect(event.getFirstPropertyValue('location')).toBe('Nakaseke, by the church; bring, please, the seed packet');
      expect(event.getFirstPropertyValue('description')).toContain(`Topic: ${topic}`);
      expect(event.getFirstPropertyValue('description')).toContain(`Expert's phone: ${expert.phone}`);

      const forExpert = parse((await send('GET', ICS(booking.id), expert)).body).event;
      expect(forExpert.getFirstPropertyValue('uid')).toBe(`kutu-booking-${booking.id}@kutu`);
      expect(forExpert.getFirstPropertyValue('description')).toContain(`Farmer's phone: ${farmer.phone}`);

      await send('POST', CANCEL(booking.id), farmer, { reason: 'Rain' });
      const cancelled = parse((await send('GET', ICS(booking.id), expert)).body);
      expect(cancelled.cal.getFirstPropertyValue('method')).toBe('CANCEL');
      expect(cancelled.event.getFirstPropertyValue('status')).toBe('CANCELLED');
      expect(cancelled.event.getFirstPropertyValue('sequence')).toBe(1);
      expect(cancelled.event.getFirstPropertyValue('uid')).toBe(`kutu-booking-${booking.id}@kutu`);
    });

    it("is written in the viewer's language, whatever the browser asks", async () => {
      const topic = 'Kutu kwenye mahindi';
      const { booking } = await approvedBooking(topic);
      const speak = (language: string) => send('PUT', api.auth.language, farmer, { language });
      expect((await speak('sw')).statusCode).toBe(200);
      try {
        const res = await t.app.inject({
          method: 'GET',
          url: ICS(booking.id),
          headers: { ...farmer.headers, 'accept-language': 'en' },
        });
        expect(res.statusCode, res.body).toBe(200);
        const { event } = parse(res.body);
        expect(event.getFirstPropertyValue('summary')).toBe(
          `Mashauriano ya Kutu na mtaalamu ${expert.username}: ${topic}`,
        );
        const description = String(event.getFirstPropertyValue('description'));
        expect(description).toContain(`Mada: ${topic}`);
        expect(description).toContain('Njia: kutembelea shamba huko Nakaseke');
        expect(description).toContain(`Simu ya mtaalamu: ${expert.phone}`);
        expect(description).toMatch(/Yamepangwa .+ EAT\./);
        // The expert's copy is in the expert's language.
        const forExpert = parse((await send('GET', ICS(booking.id), expert)).body).event;
        expect(forExpert.getFirstPropertyValue('summary')).toBe(
          `Kutu consultation with farmer ${farmer.username}: ${topic}`,
        );
      } finally {
        await speak('en');
      }
    });

    it('puts a video link in URL', async () => {
      day += 1;
      const date = `2027-03-${String(2 + day).padStart(2, '0')}`;
      const s = await send('POST', SLOTS, expert, {
        start_time: `${date} 10:00`,
        end_time: `${date} 11:00`,
        mode: 'video',
        video_url: 'https://meet.example.org/kutu-abc',
      });
      const b = await send('POST', BOOK, farmer, { slot_id: s.json().id, topic: 'Video please' });
      await send('PUT', MANAGE, expert, {
        booking_id: b.json().id,
        action: 'approve',
        selected_date: s.json().start_time,
      });
      const { event } = parse((await send('GET', ICS(b.json().id), farmer)).body);
      expect(event.getFirstPropertyValue('url')).toBe('https://meet.example.org/kutu-abc');
    });
  });
});
