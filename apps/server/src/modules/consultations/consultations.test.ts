import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bookings, notifications } from '../../db/schema/index.ts';
import { createTestApp, type TestContext } from '../../../test/support/app.ts';
import { createUser, type TestUser } from '../../../test/support/users.ts';
import { isUniqueViolation } from './consultations.repo.ts';
import { consultationsApi } from '@kutu/contract';

const SLOTS = consultationsApi.slots;
const ALL = consultationsApi.allSlots;
const BY_EXPERT = consultationsApi.slotsByExpert;
const END = (id: number) => consultationsApi.endSlot(id);
const BOOK = consultationsApi.bookings;
const MANAGE = consultationsApi.manageBookings;
const ICS = (id: number) => consultationsApi.bookingCalendar(id);

/** 1 March 2027, 09:00 East Africa Time. */
const NOW = new Date('2027-03-01T06:00:00Z');
const TOPIC = 'Rust spots on my maize';

describe('consultations: slots and bookings', () => {
  let t: TestContext;
  let expert: TestUser;
  let otherExpert: TestUser;
  let farmer: TestUser;
  let otherFarmer: TestUser;
  let day = 0;

  beforeAll(async () => {
    t = await createTestApp();
    expert = await createUser(t, 'expert');
    otherExpert = await createUser(t, 'expert');
    farmer = await createUser(t, 'farmer');
    otherFarmer = await createUser(t, 'farmer');
  });
  afterAll(() => t.close());
  beforeEach(() => {
    t.clock.set(NOW);
  });

  /** A fresh day (starting 2 March 2027) per call, so slots from different tests never overlap. */
  function nextDay(): string {
    day += 1;
    const d = new Date(Date.UTC(2027, 2, 1 + day));
    return d.toISOString().slice(0, 10);
  }

  const post = (url: string, user: TestUser | null, payload: unknown) =>
    t.app.inject({ method: 'POST', url, headers: user?.headers, payload: payload as object });
  const put = (url: string, user: TestUser | null, payload?: unknown) =>
    t.app.inject({ method: 'PUT', url, headers: user?.headers, payload: payload as object });
  const get = (url: string, user: TestUser | null) => t.app.inject({ method: 'GET', url, headers: user?.headers });

  /** A slot from 09:00 to 11:00 EAT on a fresh day. */
  async function makeSlot(owner = expert, from = '09:00:00', to = '11:00:00') {
    const date = nextDay();
    const res = await post(SLOTS, owner, { start_time: `${date} ${from}`, end_time: `${date} ${to}` });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: number; start_time: string; end_time: string; is_active: boolean; is_booked: boolean };
  }
  async function book(slotId: number, who = farmer) {
    const res = await post(BOOK, who, { slot_id: slotId, topic: TOPIC });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: number; status: string };
  }
  async function notificationsOf(user: TestUser, type: string) {
    return t.deps.database.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, user.id), eq(notifications.type, type)));
  }

  describe('who may call what', () => {
    it('answers anonymous callers with 401 on every route', async () => {
      const calls = [
        get(SLOTS, null),
        post(SLOTS, null, {}),
        get(ALL, null),
        get(BY_EXPERT, null),
        put(END(1), null),
        post(BOOK, null, { slot_id: 1, topic: TOPIC }),
        get(BOOK, null),
        get(MANAGE, null),
        put(MANAGE, null, {}),
        get(ICS(1), null),
      ];
      for (const res of await Promise.all(calls)) {
        expect(res.statusCode).toBe(401);
        expect(res.json().error.code).toBe('UNAUTHENTICATED');
      }
    });

    it('keeps farmers off expert routes and experts off farmer routes', async () => {
      const slot = await makeSlot();
      const farmerCalls = [
        get(SLOTS, farmer),
        post(SLOTS, farmer, { start_time: '2027-04-01 09:00:00', end_time: '2027-04-01 10:00:00' }),
        put(END(slot.id), farmer),
        get(MANAGE, farmer),
        put(MANAGE, farmer, { booking_id: 1, action: 'reject' }),
      ];
      for (const res of await Promise.all(farmerCalls)) {
        expect(res.statusCode).toBe(403);
        expect(res.json().error).toMatchObject({ code: 'FORBIDDEN', message: 'Only experts can do this' });
      }
      const expertCalls = [
        get(ALL, expert),
        get(BY_EXPERT, expert),
        post(BOOK, expert, { slot_id: slot.id, topic: TOPIC }),
        get(BOOK, expert),
      ];
      for (const res of await Promise.all(expertCalls)) {
        expect(res.statusCode).toBe(403);
        expect(res.json().error.message).toBe('Only farmers can do this');
      }
    });
  });

  it('documents every route in OpenAPI', async () => {
    const res = await get('/api/docs/json', null);
    expect(res.statusCode).toBe(200);
    const paths = Object.keys(res.json().paths);
    for (const p of [SLOTS, ALL, BY_EXPERT, '/api/consultations/availability-slots/end/{id}/', BOOK, MANAGE]) {
      expect(paths).toContain(p);
    }
    expect(paths).toContain('/api/consultations/consultations/{id}/calendar.ics');
  });

  describe('creating slots', () => {
    it('reads the spec form in East Africa Time and stores UTC', async () => {
      const res = await post(SLOTS, expert, { start_time: '2027-05-10 09:00:00', end_time: '2027-05-10 10:30:00' });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toEqual({
        id: expect.any(Number),
        start_time: '2027-05-10T06:00:00.000Z',
        end_time: '2027-05-10T07:30:00.000Z',
        is_active: true,
        is_booked: false,
        mode: 'phone',
        place: null,
        video_url: null,
        rule_id: null,
        expert: {
          bio: 'Plant pathologist',
          areas_of_expertise: 'Maize rust',
          certifications: 'BSc Agriculture',
          user: { username: expert.username },
        },
      });
    });

    it('accepts ISO 8601 with Z or an offset', async () => {
      const z = await post(SLOTS, expert, { start_time: '2027-05-11T06:00:00Z', end_time: '2027-05-11T07:00:00.000Z' });
      expect(z.statusCode, z.body).toBe(201);
      expect(z.json().start_time).toBe('2027-05-11T06:00:00.000Z');
      const offset = await post(SLOTS, expert, {
        start_time: '2027-05-12T09:00+02:00',
        end_time: '2027-05-12 11:00:00+02:00',
      });
      expect(offset.statusCode, offset.body).toBe(201);
      expect(offset.json()).toMatchObject({
        start_time: '2027-05-12T07:00:00.000Z',
        end_time: '2027-05-12T09:00:00.000Z',
      });
    });

    it.each([
      [{ end_time: '2027-05-20 10:00:00' }, 'start_time', 'Start time is required'],
      [{ start_time: '', end_time: '2027-05-20 10:00:00' }, 'start_time', 'Start time is required'],
      [{ start_time: '2027-05-20 09:00:00', end_time: '' }, 'end_time', 'End time is required'],
      [{ start_time: 'tomorrow morning', end_time: '2027-05-20 10:00:00' }, 'start_time', 'Start time must be a date'],
      [
        { start_time: '2027-02-30 09:00:00', end_time: '2027-05-20 10:00:00' },
        'start_time',
        'Start time must be a date',
      ],
      [
        { start_time: '2027-05-20 25:00:00', end_time: '2027-05-20 10:00:00' },
        'start_time',
        'Start time must be a date',
      ],
      [{ start_time: 1_800_000_000, end_time: '2027-05-20 10:00:00' }, 'start_time', 'Start time is required'],
    ])('refuses malformed input %j with a field error', async (payload, field, message) => {
      const res = await post(SLOTS, expert, payload);
      expect(res.statusCode).toBe(400);
      const { error } = res.json();
      expect(error.code).toBe('VALIDATION_ERROR');
      expect(error.fields[field]).toContain(message);
    });

    it.each([
      [
        'end before start',
        '2027-05-21 10:00:00',
        '2027-05-21 09:00:00',
        'end_time',
        'End time must be after the start time',
      ],
      [
        'end equal to start',
        '2027-05-21 10:00:00',
        '2027-05-21 10:00:00',
        'end_time',
        'End time must be after the start time',
      ],
      ['shorter than 15 minutes', '2027-05-21 10:00:00', '2027-05-21 10:10:00', 'end_time', 'at least 15 minutes'],
      ['longer than 12 hours', '2027-05-21 06:00:00', '2027-05-21 18:30:00', 'end_time', 'at most 12 hours'],
      [
        'starting in the past',
        '2027-02-28 09:00:00',
        '2027-02-28 10:00:00',
        'start_time',
        'Start time must be in the future',
      ],
      [
        'starting right now',
        '2027-03-01 09:00:00',
        '2027-03-01 10:00:00',
        'start_time',
        'Start time must be in the future',
      ],
      ['more than a year ahead', '2028-04-01 09:00:00', '2028-04-01 10:00:00', 'start_time', 'within 366 days'],
    ])('refuses a slot %s', async (_name, start_time, end_time, field, message) => {
      const res = await post(SLOTS, expert, { start_time, end_time });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.fields[field]).toContain(message);
      expect(res.json().error.message).toContain(message);
    });

    it('refuses a slot overlapping one of the expert’s own active slots, but not adjacent or others’ slots', async () => {
      const slot = await makeSlot(expert, '09:00:00', '11:00:00');
      const date = slot.start_time.slice(0, 10);
      const clash = await post(SLOTS, expert, { start_time: `${date} 10:30:00`, end_time: `${date} 12:00:00` });
      expect(clash.statusCode).toBe(400);
      expect(clash.json().error.fields.start_time).toMatch(/overlaps your slot from .* 09:00 EAT to .* 11:00 EAT/);
      const inside = await post(SLOTS, expert, { start_time: `${date} 09:30:00`, end_time: `${date} 10:00:00` });
      expect(inside.statusCode).toBe(400);
      const adjacent = await post(SLOTS, expert, { start_time: `${date} 11:00:00`, end_time: `${date} 12:00:00` });
      expect(adjacent.statusCode, adjacent.body).toBe(201);
      const someoneElse = await post(SLOTS, otherExpert, {
        start_time: `${date} 09:00:00`,
        end_time: `${date} 11:00:00`,
      });
      expect(someoneElse.statusCode, someoneElse.body).toBe(201);
      // A deactivated slot no longer blocks its time.
      expect((await put(END(slot.id), expert)).statusCode).toBe(200);
      const again = await post(SLOTS, expert, { start_time: `${date} 09:00:00`, end_time: `${date} 10:30:00` });
      expect(again.statusCode, again.body).toBe(201);
    });
  });

  describe('listing and deactivating slots', () => {
    it('pages through the expert’s own slots only', async () => {
      const lister = await createUser(t, 'expert');
      const made = [await makeSlot(lister), await makeSlot(lister), await makeSlot(lister)];
      await makeSlot(otherExpert);
      const first = await get(`${SLOTS}?page=1&page_size=2`, lister);
      expect(first.statusCode).toBe(200);
      expect(first.json()).toMatchObject({ count: 3, next: 2, previous: null });
      expect(first.json().results.map((s: { id: number }) => s.id)).toEqual([made[0].id, made[1].id]);
      const second = await get(`${SLOTS}?page=2&page_size=2`, lister);
      expect(second.json()).toMatchObject({ count: 3, next: null, previous: 1 });
      expect(second.json().results.map((s: { id: number }) => s.id)).toEqual([made[2].id]);
      // Past the end: no rows, the count still right (it rides on the rows otherwise).
      expect((await get(`${SLOTS}?page=3&page_size=2`, lister)).json()).toMatchObject({ count: 3, results: [] });
      const defaults = await get(SLOTS, lister);
      expect(defaults.json().results).toHaveLength(3);
      const bad = await get(`${SLOTS}?page=0`, lister);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error.fields.page).toBeDefined();
    });

    it('deactivates the expert’s own slot; another expert gets 404 and the slot stays active', async () => {
      const slot = await makeSlot();
      const foreign = await put(END(slot.id), otherExpert);
      expect(foreign.statusCode).toBe(404);
      expect(foreign.json().error.message).toBe('Availability slot not found');
      const own = await put(END(slot.id), expert);
      expect(own.statusCode).toBe(200);
      expect(own.json()).toMatchObject({ id: slot.id, is_active: false });
      const twice = await put(END(slot.id), expert);
      expect(twice.statusCode).toBe(409);
      expect(twice.json().error.message).toBe('This availability slot is already inactive');
      expect((await put(END(999_999), expert)).statusCode).toBe(404);
      expect((await put('/api/consultations/availability-slots/end/abc/', expert)).statusCode).toBe(400);
    });

    it('refuses to deactivate a booked slot with a clear message', async () => {
      const slot = await makeSlot();
      const b = await book(slot.id);
      const res = await put(END(slot.id), expert);
      expect(res.statusCode).toBe(409);
      expect(res.json().error.message).toContain('pending booking');
      await put(MANAGE, expert, { booking_id: b.id, action: 'approve', selected_date: `${slot.start_time}` });
      const approved = await put(END(slot.id), expert);
      expect(approved.statusCode).toBe(409);
      expect(approved.json().error.message).toBe('This slot has an approved booking and cannot be deactivated');
    });

    it('shows farmers only active, unbooked, future slots with the expert’s details', async () => {
      const open = await makeSlot(otherExpert);
      const inactive = await makeSlot(otherExpert);
      await put(END(inactive.id), otherExpert);
      const booked = await makeSlot(otherExpert);
      await book(booked.id);
      const ids = async () => {
        const res = await get(`${ALL}?page_size=200`, otherFarmer);
        expect(res.statusCode).toBe(200);
        return res.json().results.map((s: { id: number }) => s.id) as number[];
      };
      const listed = await ids();
      expect(listed).toContain(open.id);
      expect(listed).not.toContain(inactive.id);
      expect(listed).not.toContain(booked.id);
      const res = await get(`${ALL}?page_size=200`, otherFarmer);
      expect(res.json().results.find((s: { id: number }) => s.id === open.id)).toMatchObject({
        is_active: true,
        is_booked: false,
        expert: { user: { username: otherExpert.username }, bio: 'Plant pathologist' },
      });
      // Once the slot has started it is no longer offered.
      t.clock.set(new Date(new Date(open.start_time).getTime() + 60_000));
      expect(await ids()).not.toContain(open.id);
    });

    it('groups the farmers’ list by expert: the expert once, their slots soonest first, pages of experts', async () => {
      const later = await makeSlot(otherExpert);
      const sooner = await makeSlot(otherExpert);
      const booked = await makeSlot(otherExpert);
      await book(booked.id);
      const pages: { expert: { user: { username: string }; bio: string }; slots: { id: number }[] }[] = [];
      let count = 0;
      for (let page = 1; ; page++) {
        const res = await get(`${BY_EXPERT}?page=${page}&page_size=1`, otherFarmer);
        expect(res.statusCode, res.body).toBe(200);
        const body = res.json();
        count = body.count;
        expect(body.results.length).toBeLessThanOrEqual(1);
        pages.push(...body.results);
        if (!body.next) break;
      }
      expect(pages).toHaveLength(count);
      const names = pages.map((g) => g.expert.user.username);
      expect(new Set(names).size).toBe(names.length);
      const mine = pages.find((g) => g.expert.user.username === otherExpert.username)!;
      expect(mine.expert.bio).toBe('Plant pathologist');
      const ids = mine.slots.map((s) => s.id);
      expect(ids).toContain(later.id);
      expect(ids).not.toContain(booked.id);
      expect(ids.indexOf(later.id)).toBeLessThan(ids.indexOf(sooner.id));
      expect(mine.slots[0]).not.toHaveProperty('expert');
      // Every slot of the flat list is in exactly one expert's group.
      const flat = (await get(`${ALL}?page_size=200`, otherFarmer)).json().results.map((s: { id: number }) => s.id);
      expect(pages.flatMap((g) => g.slots.map((s) => s.id)).sort()).toEqual([...flat].sort());
      // A page past the end still says how many experts there are.
      const past = (await get(`${BY_EXPERT}?page=99&page_size=5`, otherFarmer)).json();
      expect(past).toMatchObject({ count, results: [] });
    });

    it('paginates the farmers’ list', async () => {
      const res = await get(`${ALL}?page=1&page_size=1`, farmer);
      const body = res.json();
      expect(body.results).toHaveLength(1);
      expect(body.count).toBeGreaterThan(1);
      expect(body.next).toBe(2);
    });
  });

  describe('booking', () => {
    it('books a slot as pending and tells the expert', async () => {
      const slot = await makeSlot();
      const res = await post(BOOK, farmer, { slot_id: slot.id, topic: TOPIC });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toMatchObject({
        status: 'pending',
        selected_date: null,
        reason: null,
        farmer: { username: farmer.username, email: farmer.email },
        expert: { username: expert.username },
        slot: { id: slot.id, start_time: slot.start_time, end_time: slot.end_time },
      });
      const sent = await notificationsOf(expert, 'booking_requested');
      const note = sent.find((n) => n.data.booking_id === res.json().id);
      expect(note?.message).toContain(farmer.username);
      expect(note?.message).toContain('09:00 EAT');
      const mine = await get(`${SLOTS}?page_size=200`, expert);
      expect(mine.json().results.find((s: { id: number }) => s.id === slot.id).is_booked).toBe(true);
    });

    it('refuses booking twice, a taken slot, an inactive, past or missing slot', async () => {
      const slot = await makeSlot();
      await book(slot.id);
      const again = await post(BOOK, farmer, { slot_id: slot.id, topic: TOPIC });
      expect(again.statusCode).toBe(409);
      expect(again.json().error.message).toBe('You have already booked this slot');
      const taken = await post(BOOK, otherFarmer, { slot_id: slot.id, topic: TOPIC });
      expect(taken.statusCode).toBe(409);
      expect(taken.json().error.message).toBe('This slot has already been booked');

      const inactive = await makeSlot();
      await put(END(inactive.id), expert);
      const res1 = await post(BOOK, farmer, { slot_id: inactive.id, topic: TOPIC });
      expect(res1.statusCode).toBe(409);
      expect(res1.json().error.message).toBe('This slot is no longer available');

      const past = await makeSlot();
      t.clock.set(new Date(new Date(past.start_time).getTime() + 1));
      const res2 = await post(BOOK, farmer, { slot_id: past.id, topic: TOPIC });
      expect(res2.statusCode).toBe(409);
      expect(res2.json().error.message).toBe('This slot has already started or passed');

      const missing = await post(BOOK, farmer, { slot_id: 999_999, topic: TOPIC });
      expect(missing.statusCode).toBe(404);
      const bad = await post(BOOK, farmer, { slot_id: 'x', topic: TOPIC });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error.fields.slot_id).toBe('Choose a slot to book');
    });

    it('lets exactly one of 20 farmers win a race for one slot', async () => {
      const slot = await makeSlot();
      const racers = await Promise.all(Array.from({ length: 20 }, () => createUser(t, 'farmer')));
      const replies = await Promise.all(racers.map((r) => post(BOOK, r, { slot_id: slot.id, topic: TOPIC })));
      const codes = replies.map((r) => r.statusCode);
      expect(codes.filter((c) => c === 201)).toHaveLength(1);
      expect(codes.filter((c) => c === 409)).toHaveLength(19);
      for (const r of replies.filter((x) => x.statusCode === 409)) {
        expect(r.json().error.message).toBe('This slot has already been booked');
      }
      const rows = await t.deps.database.db.select().from(bookings).where(eq(bookings.slotId, slot.id));
      expect(rows).toHaveLength(1);
    });

    it('has the database refuse a second live booking even when code is bypassed', async () => {
      const slot = await makeSlot();
      const { db } = t.deps.database;
      await db.insert(bookings).values({ slotId: slot.id, farmerId: farmer.id });
      const second = db.insert(bookings).values({ slotId: slot.id, farmerId: otherFarmer.id });
      const err = await second.then(
        () => null,
        (e: unknown) => e as { cause?: { code?: string } },
      );
      expect(err, 'a second live booking must be refused').not.toBeNull();
      expect(err?.cause?.code ?? (err as { code?: string }).code).toBe('23505');
      expect(isUniqueViolation(err, 'bookings_one_live_per_slot')).toBe(true);
      // Rejected bookings do not hold the slot.
      await db.insert(bookings).values({ slotId: slot.id, farmerId: otherFarmer.id, status: 'rejected' });
      const approvedNoDate = db
        .insert(bookings)
        .values({ slotId: (await makeSlot()).id, farmerId: farmer.id, status: 'approved' });
      await expect(approvedNoDate).rejects.toThrow();
    });
  });

  describe('approving and rejecting', () => {
    it('approving with no time confirms the time the slot fixes, its start', async () => {
      const slot = await makeSlot(expert, '09:00:00', '11:00:00');
      const b = await book(slot.id);
      const ok = await put(MANAGE, expert, { booking_id: b.id, action: 'approve' });
      expect(ok.statusCode, ok.body).toBe(200);
      expect(ok.json()).toMatchObject({ id: b.id, status: 'approved', selected_date: slot.start_time });
      const [note] = (await notificationsOf(farmer, 'booking_approved')).filter((n) => n.data.booking_id === b.id);
      expect(note.data).toEqual({ booking_id: b.id, selected_date: slot.start_time });
    });

    it('approves with a time inside the slot window and in the future, and tells the farmer', async () => {
      const slot = await makeSlot(expert, '09:00:00', '11:00:00');
      const b = await book(slot.id);
      const date = slot.start_time.slice(0, 10);
      const approve = (selected_date?: string) =>
        put(MANAGE, expert, { booking_id: b.id, action: 'approve', selected_date });

      const before = await approve(`${date} 08:59:00`);
      expect(before.statusCode).toBe(400);
      expect(before.json().error.fields.selected_date).toContain('within the slot');
      const atEnd = await approve(`${date} 11:00:00`);
      expect(atEnd.statusCode).toBe(400);
      const garbage = await approve('soon');
      expect(garbage.statusCode).toBe(400);
      expect(garbage.json().error.fields.selected_date).toContain('Scheduled date and time must be a date');

      // Inside the window but already past: the clock stands at 10:00 EAT on the slot's day.
      t.clock.set(new Date(`${date}T07:00:00Z`));
      const past = await approve(`${date} 09:30:00`);
      expect(past.statusCode).toBe(400);
      expect(past.json().error.fields.selected_date).toBe('The scheduled time must be in the future');

      const ok = await approve(`${date} 10:15:00`);
      expect(ok.statusCode, ok.body).toBe(200);
      expect(ok.json()).toMatchObject({ id: b.id, status: 'approved', selected_date: `${date}T07:15:00.000Z` });

      const [note] = (await notificationsOf(farmer, 'booking_approved')).filter((n) => n.data.booking_id === b.id);
      expect(note.message).toContain('10:15 EAT');
      expect(note.data).toEqual({ booking_id: b.id, selected_date: `${date}T07:15:00.000Z` });

      const twice = await put(MANAGE, expert, { booking_id: b.id, action: 'reject' });
      expect(twice.statusCode).toBe(409);
      expect(twice.json().error.message).toBe('This booking has already been approved');
    });

    it('lets only the slot’s expert decide', async () => {
      const slot = await makeSlot();
      const b = await book(slot.id);
      const res = await put(MANAGE, otherExpert, {
        booking_id: b.id,
        action: 'approve',
        selected_date: slot.start_time,
      });
      expect(res.statusCode).toBe(404);
      expect(res.json().error.message).toBe('Booking not found');
      const reject = await put(MANAGE, otherExpert, { booking_id: b.id, action: 'reject' });
      expect(reject.statusCode).toBe(404);
      const bad = await put(MANAGE, expert, { booking_id: b.id, action: 'cancel' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error.fields.action).toBe('Action must be approve or reject');
      const list = await get(MANAGE, otherExpert);
      expect(list.json().results.map((x: { id: number }) => x.id)).not.toContain(b.id);
    });

    it('rejects with a reason, tells the farmer, and frees the slot for another farmer', async () => {
      const slot = await makeSlot();
      const b = await book(slot.id, farmer);
      const res = await put(MANAGE, expert, { booking_id: b.id, action: 'reject', reason: 'Away at a field day' });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ status: 'rejected', reason: 'Away at a field day', selected_date: null });
      const [note] = (await notificationsOf(farmer, 'booking_rejected')).filter((n) => n.data.booking_id === b.id);
      expect(note.message).toContain('Reason: Away at a field day');

      const all = await get(`${ALL}?page_size=200`, otherFarmer);
      expect(all.json().results.map((s: { id: number }) => s.id)).toContain(slot.id);
      const rebooked = await post(BOOK, otherFarmer, { slot_id: slot.id, topic: TOPIC });
      expect(rebooked.statusCode, rebooked.body).toBe(201);

      const mine = await get(`${BOOK}?page_size=200`, farmer);
      const entry = mine.json().results.find((x: { id: number }) => x.id === b.id);
      expect(entry).toMatchObject({
        status: 'rejected',
        reason: 'Away at a field day',
        expert: { username: expert.username },
      });
      const theirs = await get(`${BOOK}?page_size=200`, otherFarmer);
      expect(theirs.json().results.map((x: { id: number }) => x.id)).not.toContain(b.id);
    });

    it('lists the expert’s bookings with the farmer’s details, filtered by status and paginated', async () => {
      const listExpert = await createUser(t, 'expert');
      const s1 = await makeSlot(listExpert);
      const s2 = await makeSlot(listExpert);
      const s3 = await makeSlot(listExpert);
      const b1 = await book(s1.id, farmer);
      const b2 = await book(s2.id, otherFarmer);
      await book(s3.id, farmer);
      await put(MANAGE, listExpert, { booking_id: b1.id, action: 'reject' });
      await put(MANAGE, listExpert, { booking_id: b2.id, action: 'approve', selected_date: s2.start_time });

      const all = await get(`${MANAGE}?page_size=2`, listExpert);
      expect(all.json()).toMatchObject({ count: 3, next: 2, previous: null });
      const pending = await get(`${MANAGE}?status=pending`, listExpert);
      expect(pending.json().count).toBe(1);
      const approved = await get(`${MANAGE}?status=approved`, listExpert);
      expect(approved.json().results).toEqual([
        expect.objectContaining({
          id: b2.id,
          status: 'approved',
          selected_date: s2.start_time,
          topic: TOPIC,
          farmer: { username: otherFarmer.username, email: otherFarmer.email, phone: otherFarmer.phone },
          expert: { username: listExpert.username, phone: listExpert.phone },
          slot: { id: s2.id, start_time: s2.start_time, end_time: s2.end_time },
        }),
      ]);
      const bad = await get(`${MANAGE}?status=done`, listExpert);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error.fields.status).toBeDefined();
    });
  });

  describe('calendar file', () => {
    it('gives the farmer and the expert an .ics event at the scheduled time; nobody else', async () => {
      const slot = await makeSlot(expert, '14:00:00', '16:00:00');
      const b = await book(slot.id);
      const pending = await get(ICS(b.id), farmer);
      expect(pending.statusCode).toBe(409);
      expect(pending.json().error.message).toBe('Only an approved booking can be added to a calendar');

      const date = slot.start_time.slice(0, 10);
      await put(MANAGE, expert, { booking_id: b.id, action: 'approve', selected_date: `${date} 15:30:00` });
      const res = await get(ICS(b.id), farmer);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('text/calendar');
      expect(res.headers['content-disposition']).toBe(`attachment; filename="kutu-consultation-${b.id}.ics"`);
      const ics = res.body;
      expect(ics).toContain('BEGIN:VCALENDAR');
      expect(ics).toContain('BEGIN:VEVENT');
      const compact = `${date.replaceAll('-', '')}T123000Z`;
      expect(ics).toMatch(new RegExp(`DTSTART:${compact}`));
      // An hour, but never past the slot's end (16:00 EAT = 13:00Z).
      expect(ics).toMatch(new RegExp(`DTEND:${date.replaceAll('-', '')}T130000Z`));
      expect(ics).toContain(`SUMMARY:Kutu consultation with expert ${expert.username}`);

      const forExpert = await get(ICS(b.id), expert);
      expect(forExpert.statusCode).toBe(200);
      expect(forExpert.body).toContain(`farmer ${farmer.username}`);
      expect((await get(ICS(b.id), otherFarmer)).statusCode).toBe(404);
      expect((await get(ICS(b.id), otherExpert)).statusCode).toBe(404);
    });
  });
});
