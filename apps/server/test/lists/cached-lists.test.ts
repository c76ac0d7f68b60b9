import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { communityApi, consultationsApi } from '@kutu/contract';
import { availabilitySlots, posts } from '../../src/db/schema/index.ts';
import { LIST_CACHE_TTL_MS } from '../../src/lib/list-cache.ts';
import { createTestApp, type TestContext } from '../support/app.ts';
import { createUser, type TestUser } from '../support/users.ts';

/**
 * Pages of approved posts and of bookable slots are cached per process (docs/decisions/0025). Each
 * test first shows the page is served from the cache (a row written behind the app's back does not
 * appear), then that a write through the API shows on the very next read.
 */

const HOUR = 3600_000;

type Method = 'GET' | 'POST' | 'PUT';
/** A request that must succeed; its JSON reply. */
async function sendAs(t: TestContext, user: TestUser, method: Method, url: string, payload?: object) {
  const res = await t.app.inject({ method, url, payload, headers: user.headers });
  expect(res.statusCode, res.body).toBeLessThan(300);
  return res.json();
}

describe('the cached approved-posts list', () => {
  let t: TestContext;
  let farmer: TestUser;
  let other: TestUser;
  let expert: TestUser;
  const LIST = `${communityApi.posts}?page_size=50`;

  beforeAll(async () => {
    t = await createTestApp();
    [farmer, other, expert] = [
      await createUser(t, 'farmer'),
      await createUser(t, 'farmer'),
      await createUser(t, 'expert'),
    ];
  });
  afterAll(() => t.close());

  const send = (user: TestUser, method: Method, url: string, payload?: object) => sendAs(t, user, method, url, payload);
  type Post = {
    id: number;
    title: string;
    farmer_comments: { id: number; content: string }[];
    expert_comments: { content: string }[];
  };
  const list = async (user: TestUser, url = LIST) => (await send(user, 'GET', url)).results as Post[];
  const titles = async (user: TestUser, url = LIST) => (await list(user, url)).map((p) => p.title);
  const postOf = async (user: TestUser, id: number) => (await list(user)).find((p) => p.id === id);

  let seq = 0;
  async function approvedPost(title: string, crop = 'MAIZE') {
    t.clock.advance(1000);
    const post = await send(farmer, 'POST', communityApi.posts, {
      title,
      content: 'Small orange pustules appeared on both sides of the leaves this week.',
      crop_type: crop,
      disease_type: 'common_rust',
      urgency_level: 'high',
    });
    await send(expert, 'PUT', communityApi.moderatePost.replace(':id', String(post.id)), { action: 'approve' });
    return post.id as number;
  }
  /** An approved post written straight into the database: no write of the app announces it. */
  async function behindTheBack() {
    const title = `Written behind the app's back ${++seq}`;
    t.clock.advance(1000);
    await t.deps.database.db.insert(posts).values({
      authorId: other.id,
      title,
      content: 'Not announced',
      cropType: 'MAIZE',
      diseaseType: 'common_rust',
      urgencyLevel: 'low',
      status: 'approved',
      createdAt: t.clock.now(),
    });
    return title;
  }

  it('shows a moderation at once: flagged leaves the list, approved again comes back', async () => {
    const id = await approvedPost('Rust on the lower leaves');
    expect(await titles(farmer)).toContain('Rust on the lower leaves');
    const hidden = await behindTheBack();
    expect(await titles(farmer), 'the page is served from the cache').not.toContain(hidden);

    await send(expert, 'PUT', communityApi.moderatePost.replace(':id', String(id)), { action: 'flag' });
    const afterFlag = await titles(farmer);
    expect(afterFlag).not.toContain('Rust on the lower leaves');
    expect(afterFlag, 'the flag dropped the cached page').toContain(hidden);

    await send(expert, 'PUT', communityApi.moderatePost.replace(':id', String(id)), { action: 'approve' });
    expect(await titles(farmer)).toContain('Rust on the lower leaves');
  });

  it('shows a new comment at once, to whom it is visible, and its moderation', async () => {
    const id = await approvedPost('Beans with brown rings');
    expect((await postOf(farmer, id))?.farmer_comments).toEqual([]);
    const hidden = await behindTheBack();
    expect(await titles(farmer)).not.toContain(hidden);

    // A farmer's comment waits for approval: its author and experts see it, other farmers do not,
    // although all three are served from the same cached page.
    const comment = await send(other, 'POST', communityApi.responses.replace(':postId', String(id)), {
      content: 'Same here, since Monday',
    });
    expect(await titles(farmer), 'the comment dropped the cached page').toContain(hidden);
    expect((await postOf(other, id))?.farmer_comments.map((c) => c.content)).toEqual(['Same here, since Monday']);
    expect((await postOf(expert, id))?.farmer_comments.map((c) => c.content)).toEqual(['Same here, since Monday']);
    expect((await postOf(farmer, id))?.farmer_comments).toEqual([]);

    await send(expert, 'PUT', communityApi.moderateResponse.replace(':id', String(comment.id)), {
      action: 'approve',
      expert_comment: 'Remove the worst leaves first',
    });
    const seen = await postOf(farmer, id);
    expect(seen?.farmer_comments.map((c) => c.content)).toEqual(['Same here, since Monday']);
    expect(seen?.expert_comments.map((c) => c.content)).toEqual(['Remove the worst leaves first']);

    await send(expert, 'PUT', communityApi.moderateResponse.replace(':id', String(comment.id)), { action: 'flag' });
    expect((await postOf(farmer, id))?.farmer_comments).toEqual([]);

    await send(expert, 'POST', communityApi.responses.replace(':postId', String(id)), { content: 'Spray tomorrow' });
    expect((await postOf(farmer, id))?.expert_comments.map((c) => c.content)).toContain('Spray tomorrow');
  });

  it('keeps pages of each filter and page size apart', async () => {
    await approvedPost('A rice question', 'RICE');
    const rice = await titles(farmer, `${communityApi.posts}?crop_type=RICE`);
    expect(rice).toEqual(['A rice question']);
    const first = await send(farmer, 'GET', `${communityApi.posts}?page_size=1`);
    expect(first.results).toHaveLength(1);
    expect(first.next).toBe(2);
    const second = await send(farmer, 'GET', `${communityApi.posts}?page_size=1&page=2`);
    expect(second.results[0].id).not.toBe(first.results[0].id);
    expect(await titles(farmer, `${communityApi.posts}?crop_type=RICE`)).toEqual(['A rice question']);
  });

  it('forgets an unannounced change after the TTL at the latest (the bound for a lost notification)', async () => {
    await titles(farmer);
    const hidden = await behindTheBack(); // moves the clock on by a second
    t.clock.advance(LIST_CACHE_TTL_MS - 1000 - 1);
    expect(await titles(farmer)).not.toContain(hidden);
    t.clock.advance(1);
    expect(await titles(farmer)).toContain(hidden);
  });
});

describe('the cached bookable-slots list', () => {
  let t: TestContext;
  let farmer: TestUser;
  let expert: TestUser;
  let otherExpert: TestUser;
  const LIST = `${consultationsApi.allSlots}?page_size=100`;

  beforeAll(async () => {
    t = await createTestApp();
    t.clock.set(new Date('2027-03-01T05:00:00Z'));
    [farmer, expert, otherExpert] = [
      await createUser(t, 'farmer'),
      await createUser(t, 'expert'),
      await createUser(t, 'expert'),
    ];
  });
  afterAll(() => t.close());

  const send = (user: TestUser, method: Method, url: string, payload?: object) => sendAs(t, user, method, url, payload);
  const ids = async () => ((await send(farmer, 'GET', LIST)).results as { id: number }[]).map((s) => s.id);

  let hour = 100;
  /** A video slot of an hour, each at a later time than the last. */
  async function slot(startsIn = ++hour * HOUR, owner = expert) {
    const start = t.clock.now().getTime() + startsIn;
    const created = await send(owner, 'POST', consultationsApi.slots, {
      start_time: new Date(start).toISOString(),
      end_time: new Date(start + HOUR).toISOString(),
      mode: 'video',
      video_url: 'https://meet.example.com/kutu',
    });
    return created.id as number;
  }
  /** A free slot written straight into the database: no write of the app announces it. */
  async function behindTheBack() {
    const start = t.clock.now().getTime() + ++hour * HOUR;
    const [row] = await t.deps.database.db
      .insert(availabilitySlots)
      .values({ expertId: expert.id, startTime: new Date(start), endTime: new Date(start + HOUR) })
      .returning({ id: availabilitySlots.id });
    return row.id;
  }

  it('shows new, booked, freed and ended slots at once', async () => {
    const first = await slot();
    expect(await ids()).toContain(first);
    const hidden = await behindTheBack();
    expect(await ids(), 'the page is served from the cache').not.toContain(hidden);

    const second = await slot();
    expect(await ids()).toEqual(expect.arrayContaining([first, second, hidden]));

    const booking = await send(farmer, 'POST', consultationsApi.bookings, { slot_id: first, topic: 'Rust' });
    expect(await ids()).not.toContain(first);
    await send(farmer, 'POST', consultationsApi.cancelBooking(booking.id), {});
    expect(await ids()).toContain(first);

    const again = await send(farmer, 'POST', consultationsApi.bookings, { slot_id: first, topic: 'Rust again' });
    expect(await ids()).not.toContain(first);
    await send(expert, 'PUT', consultationsApi.manageBookings, {
      booking_id: again.id,
      action: 'reject',
      reason: 'Away',
    });
    expect(await ids()).toContain(first);

    await send(expert, 'PUT', consultationsApi.endSlot(second), {});
    expect(await ids()).not.toContain(second);
  });

  it('shows the slots of a weekly availability at once, and their end', async () => {
    const before = await ids();
    const rule = await send(expert, 'POST', consultationsApi.rules, {
      weekdays: [3],
      start_time: '06:00',
      end_time: '07:00',
      slot_minutes: 60,
      mode: 'video',
      video_url: 'https://meet.example.com/kutu',
    });
    expect(rule.created).toBeGreaterThan(0);
    const withRule = await ids();
    expect(withRule.length).toBe(before.length + rule.created);
    await send(expert, 'PUT', consultationsApi.endRule(rule.rule.id), {});
    expect(await ids()).toEqual(before);
  });

  it('drops a slot from the cached page when it starts, before the TTL', async () => {
    const soon = await slot(2000);
    const page = await send(farmer, 'GET', LIST);
    expect(page.results[0].id).toBe(soon);
    t.clock.advance(2000);
    const later = await send(farmer, 'GET', LIST);
    expect(later.results.map((s: { id: number }) => s.id)).not.toContain(soon);
    expect(later.count).toBe(page.count - 1);
  });

  it('counts and drops slots that start from a later page too', async () => {
    const soon = await slot(3000, otherExpert); // the first expert's last slot has not ended
    const secondPage = await send(farmer, 'GET', `${consultationsApi.allSlots}?page_size=1&page=2`);
    expect(secondPage.results[0].id).not.toBe(soon);
    t.clock.advance(3000);
    const after = await send(farmer, 'GET', `${consultationsApi.allSlots}?page_size=1&page=2`);
    expect(after.count).toBe(secondPage.count - 1);
    expect(after.results[0].id).not.toBe(secondPage.results[0].id);
  });
});
