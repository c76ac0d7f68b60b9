import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analysisApi, consultationsApi, communityApi, dashboardApi, reviewApi, trainingApi } from '@kutu/contract';
import { buildApp } from '../../src/app.ts';
import type { App } from '../../src/deps.ts';
import { analyses, trainingJobs, trainingSamples } from '../../src/db/schema/index.ts';
import { fixture, multipart } from '../support/photos.ts';
import { createTestApp, type TestContext } from '../support/app.ts';
import { createUser, type TestUser } from '../support/users.ts';

/**
 * A farmer's dashboard and history are cached per user until a write raises the user's read version
 * (database triggers, docs/decisions/0036). Each test first shows the screen is served from the cache
 * (a row written with the triggers switched off does not appear), then that each kind of write through
 * the API shows on the very next read, in this process and in another one (a second app on the same
 * database, with its own caches and no event between the two).
 */

const HOUR = 3600_000;
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

interface Dashboard {
  stats: {
    totalImagesAnalyzed: number;
    imagesTrainingRust: number;
    trainingSessions: number;
    communityPostsRust: number;
  };
  farmer: {
    analyses: number;
    questions_asked: number;
    questions_answered: number;
    posts: number;
    posts_answered: number;
    bookings_pending: number;
    bookings_approved: number;
  };
}
interface History {
  count: number;
  results: { id: number; rust_class: string | null; educational_resources: { title: string; url: string }[] }[];
}

describe("a farmer's cached dashboard and history", () => {
  let t: TestContext;
  /** A second web process: the same database, its own caches, no coordinator shared with the first. */
  let other: App;
  let farmer: TestUser;
  let expert: TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    other = await buildApp(t.deps);
    await other.ready();
    [farmer, expert] = [await createUser(t, 'farmer'), await createUser(t, 'expert')];
  });
  afterAll(async () => {
    await other.close();
    await t.close();
  });

  async function send(user: TestUser, method: Method, url: string, payload?: object, app = t.app) {
    const res = await app.inject({ method, url, payload, headers: user.headers });
    expect(res.statusCode, res.body).toBeLessThan(300);
    return res.body ? res.json() : null;
  }
  const dashboard = async (app = t.app) =>
    (await send(farmer, 'GET', dashboardApi.summary, undefined, app)) as Dashboard;
  const history = async (app = t.app, query = '') =>
    (await send(farmer, 'GET', `${analysisApi.list}${query}`, undefined, app)) as History;
  /** Both screens, read in both processes (so both have them cached). */
  const screens = async () => ({
    a: { dashboard: await dashboard(), history: await history() },
    b: { dashboard: await dashboard(other), history: await history(other) },
  });

  /** Runs `write` on the database with the read-version triggers off: a write no cache hears of. */
  async function unannounced(write: () => Promise<unknown>) {
    const db = t.deps.database.db;
    await db.execute(sql`alter table analyses disable trigger user`);
    try {
      await write();
    } finally {
      await db.execute(sql`alter table analyses enable trigger user`);
    }
  }
  const hiddenAnalysis = () =>
    unannounced(() =>
      t.deps.database.db.insert(analyses).values({
        userId: farmer.id,
        imagePath: 'analyses/hidden.jpg',
        outcome: 'diagnosis',
        rustClass: 'healthy',
        confidence: 0.9,
        probabilities: { common_rust: 0.05, healthy: 0.9, other_disease: 0.05 },
        modelVersion: 'hidden',
        createdAt: t.clock.now(),
      }),
    );

  async function analyse() {
    t.clock.advance(1000);
    const form = multipart([{ filename: 'leaf.jpg', data: fixture('maize-common-rust.jpg') }]);
    const res = await t.app.inject({
      method: 'POST',
      url: analysisApi.detect,
      payload: form.payload,
      headers: { ...form.headers, ...farmer.headers },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as number;
  }

  it('serves both screens from the cache while nothing announced a write', async () => {
    const before = await screens();
    await hiddenAnalysis();
    const after = await screens();
    expect(after.a.dashboard.farmer.analyses, 'the dashboard is served from the cache').toBe(
      before.a.dashboard.farmer.analyses,
    );
    expect(after.a.history.count, 'the history is served from the cache').toBe(before.a.history.count);
    expect(after.b.dashboard.farmer.analyses).toBe(before.b.dashboard.farmer.analyses);
    expect(after.b.history.count).toBe(before.b.history.count);
  });

  it('shows a new analysis at once, in this process and in another', async () => {
    const before = await screens();
    const id = await analyse();
    const after = await screens();
    for (const p of ['a', 'b'] as const) {
      // The analysis hidden by the test before is counted now too: the whole entry was read again.
      expect(after[p].dashboard.farmer.analyses).toBeGreaterThanOrEqual(before[p].dashboard.farmer.analyses + 1);
      expect(after[p].dashboard.farmer.analyses).toBe(after[p].history.count);
      expect(after[p].history.results[0].id).toBe(id);
    }
  });

  it("shows the farmer's question and the expert's verdict, its training sample and its removal", async () => {
    const id = await analyse();
    const before = await screens();
    await send(farmer, 'POST', reviewApi.askPath(id), { question: 'Are these orange spots rust?' });
    let now = await screens();
    expect(now.a.dashboard.farmer.questions_asked).toBe(before.a.dashboard.farmer.questions_asked + 1);
    expect(now.b.dashboard.farmer.questions_asked).toBe(before.b.dashboard.farmer.questions_asked + 1);

    await send(expert, 'POST', reviewApi.claimPath(id), {}, other);
    await send(expert, 'PUT', reviewApi.reviewPath(id), { verdict: 'common_rust', note: 'Rust: spray.' }, other);
    now = await screens();
    for (const p of ['a', 'b'] as const) {
      expect(now[p].dashboard.farmer.questions_answered).toBe(before[p].dashboard.farmer.questions_answered + 1);
      expect(now[p].dashboard.stats.imagesTrainingRust).toBe(before[p].dashboard.stats.imagesTrainingRust + 1);
    }

    const [sample] = await t.deps.database.db
      .select({ id: trainingSamples.id })
      .from(trainingSamples)
      .where(eq(trainingSamples.sourceAnalysisId, id));
    await send(expert, 'DELETE', trainingApi.sample.replace(':id', String(sample.id)));
    now = await screens();
    expect(now.a.dashboard.stats.imagesTrainingRust).toBe(before.a.dashboard.stats.imagesTrainingRust);
    expect(now.b.dashboard.stats.imagesTrainingRust).toBe(before.b.dashboard.stats.imagesTrainingRust);
  });

  it("shows the farmer's new post and an expert's answer to it", async () => {
    const before = await screens();
    const post = await send(farmer, 'POST', communityApi.posts, {
      title: 'Orange spots on my maize',
      content: 'Small orange pustules appeared on both sides of the leaves this week.',
      crop_type: 'MAIZE',
      disease_type: 'common_rust',
      urgency_level: 'high',
    });
    let now = await screens();
    for (const p of ['a', 'b'] as const) {
      expect(now[p].dashboard.farmer.posts).toBe(before[p].dashboard.farmer.posts + 1);
      expect(now[p].dashboard.stats.communityPostsRust).toBe(before[p].dashboard.stats.communityPostsRust + 1);
    }
    await send(expert, 'PUT', communityApi.moderatePost.replace(':id', String(post.id)), { action: 'approve' }, other);
    await send(
      expert,
      'POST',
      communityApi.responses.replace(':postId', String(post.id)),
      { content: 'Spray tomorrow' },
      other,
    );
    now = await screens();
    expect(now.a.dashboard.farmer.posts_answered).toBe(before.a.dashboard.farmer.posts_answered + 1);
    expect(now.b.dashboard.farmer.posts_answered).toBe(before.b.dashboard.farmer.posts_answered + 1);
  });

  it('shows a booking, its approval and its cancellation', async () => {
    const start = t.clock.now().getTime() + 48 * HOUR;
    const slot = await send(expert, 'POST', consultationsApi.slots, {
      start_time: new Date(start).toISOString(),
      end_time: new Date(start + HOUR).toISOString(),
      mode: 'video',
      video_url: 'https://meet.example.com/kutu',
    });
    const before = await screens();
    const booking = await send(farmer, 'POST', consultationsApi.bookings, { slot_id: slot.id, topic: 'Rust' });
    let now = await screens();
    expect(now.a.dashboard.farmer.bookings_pending).toBe(before.a.dashboard.farmer.bookings_pending + 1);
    expect(now.b.dashboard.farmer.bookings_pending).toBe(before.b.dashboard.farmer.bookings_pending + 1);

    await send(
      expert,
      'PUT',
      consultationsApi.manageBookings,
      { booking_id: booking.id, action: 'approve', selected_date: slot.start_time },
      other,
    );
    now = await screens();
    for (const p of ['a', 'b'] as const) {
      expect(now[p].dashboard.farmer.bookings_pending).toBe(before[p].dashboard.farmer.bookings_pending);
      expect(now[p].dashboard.farmer.bookings_approved).toBe(before[p].dashboard.farmer.bookings_approved + 1);
    }
    await send(farmer, 'POST', consultationsApi.cancelBooking(booking.id), {}, other);
    now = await screens();
    expect(now.a.dashboard.farmer.bookings_approved).toBe(before.a.dashboard.farmer.bookings_approved);
    expect(now.b.dashboard.farmer.bookings_approved).toBe(before.b.dashboard.farmer.bookings_approved);
  });

  it('shows a training session that succeeded in the worker, for every farmer', async () => {
    const before = await screens();
    const [job] = await t.deps.database.db
      .insert(trainingJobs)
      .values({ startedBy: expert.id, trigger: 'manual', status: 'running' })
      .returning({ id: trainingJobs.id });
    // Progress is no change for anybody's screen; success is.
    expect((await dashboard()).stats.trainingSessions).toBe(before.a.dashboard.stats.trainingSessions);
    await t.deps.database.db.update(trainingJobs).set({ status: 'succeeded' }).where(eq(trainingJobs.id, job.id));
    const now = await screens();
    expect(now.a.dashboard.stats.trainingSessions).toBe(before.a.dashboard.stats.trainingSessions + 1);
    expect(now.b.dashboard.stats.trainingSessions).toBe(before.b.dashboard.stats.trainingSessions + 1);
  });

  it("shows an expert's change to the resources shown with each result in the history", async () => {
    await analyse();
    const before = await history();
    const rust = before.results.find((r) => r.rust_class === 'common_rust');
    const shown = rust?.educational_resources[0];
    expect(shown, 'a rust result shows resources').toBeDefined();
    const all = await send(expert, 'GET', `${analysisApi.resources}?rust_class=common_rust&page_size=100`);
    const resource = (all.results as { id: number; url: string; rust_class: string; description: string }[]).find(
      (r) => r.url === shown?.url,
    );
    expect(resource).toBeDefined();
    await history(other);
    await send(expert, 'PUT', analysisApi.resourcePath(resource!.id), {
      rust_class: resource!.rust_class,
      title: 'Rust on maize: what to spray, and when',
      url: resource!.url,
      description: resource!.description,
    });
    for (const app of [t.app, other]) {
      const now = await history(app);
      const titles = now.results.find((r) => r.id === rust!.id)?.educational_resources.map((r) => r.title);
      expect(titles).toContain('Rust on maize: what to spray, and when');
    }
  });

  it('keeps pages and users apart', async () => {
    const first = await history(t.app, '?page_size=1');
    const second = await history(t.app, '?page_size=1&page=2');
    expect(first.results).toHaveLength(1);
    expect(second.results[0].id).not.toBe(first.results[0].id);
    const stranger = await createUser(t, 'farmer');
    const theirs = await send(stranger, 'GET', analysisApi.list);
    expect(theirs.count).toBe(0);
    const theirDashboard = await send(stranger, 'GET', dashboardApi.summary);
    expect(theirDashboard.farmer.analyses).toBe(0);
  });
});
