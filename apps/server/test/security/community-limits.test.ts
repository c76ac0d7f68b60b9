import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMENT_RATE_LIMIT, POST_RATE_LIMIT, communityApi, communityPath } from '@kutu/contract';
import { posts, responses } from '../../src/db/schema/index.ts';
import { fixture, multipart } from '../support/photos.ts';
import { createTestApp, type TestContext } from '../support/app.ts';
import { createUser } from '../support/users.ts';

const POSTS = communityApi.posts;
const post = {
  title: 'Orange spots on maize leaves',
  content: 'Small orange pustules appeared on both sides of the leaves this week. What should I spray?',
  crop_type: 'MAIZE',
  disease_type: 'common_rust',
  urgency_level: 'high',
};

/** The per-user post and comment limits were once counted, then inserted, in separate steps (docs/decisions/0012). */
describe('community rate limits under concurrent requests', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it(`creates exactly ${POST_RATE_LIMIT.max} of 20 concurrent posts`, async () => {
    const farmer = await createUser(t, 'farmer');
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        t.app.inject({
          method: 'POST',
          url: POSTS,
          payload: { ...post, title: `Question number ${i}` },
          headers: farmer.headers,
        }),
      ),
    );
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 201)).toHaveLength(POST_RATE_LIMIT.max);
    expect(codes.filter((c) => c === 429)).toHaveLength(20 - POST_RATE_LIMIT.max);
    for (const r of results.filter((x) => x.statusCode === 429)) {
      expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
    }
    const rows = await t.deps.database.db.select().from(posts).where(eq(posts.authorId, farmer.id));
    expect(rows).toHaveLength(POST_RATE_LIMIT.max);
  });

  it('keeps no photo of a refused post when posts with photos arrive at once', async () => {
    const farmer = await createUser(t, 'farmer');
    const photo = fixture('maize-common-rust.jpg');
    // Sequential posts use up all but one place, then eight arrive together.
    for (let i = 0; i < POST_RATE_LIMIT.max - 1; i++) {
      const res = await t.app.inject({ method: 'POST', url: POSTS, payload: post, headers: farmer.headers });
      expect(res.statusCode).toBe(201);
    }
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => {
        const form = multipart([{ filename: 'leaf.jpg', data: photo }], { ...post, title: `Question number ${i}` });
        return t.app.inject({
          method: 'POST',
          url: POSTS,
          payload: form.payload,
          headers: { ...farmer.headers, ...form.headers },
        });
      }),
    );
    // Beyond the post limit some are refused by the per-user share of the decode limiter: 429 either way.
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 201)).toHaveLength(1);
    expect(codes.filter((c) => c === 429)).toHaveLength(7);
    const rows = await t.deps.database.db.select().from(posts).where(eq(posts.authorId, farmer.id));
    expect(rows).toHaveLength(POST_RATE_LIMIT.max);
    const stored = fs.readdirSync(path.join(t.dataDir, 'uploads', 'posts'));
    expect(stored).toEqual(rows.filter((r) => r.imagePath).map((r) => path.basename(r.imagePath ?? '')));
  });

  it(`creates exactly ${COMMENT_RATE_LIMIT.max} of 30 concurrent comments`, async () => {
    const author = await createUser(t, 'farmer');
    const commenter = await createUser(t, 'farmer');
    const expert = await createUser(t, 'expert');
    t.clock.advance(60 * 60_000);
    const created = await t.app.inject({ method: 'POST', url: POSTS, payload: post, headers: author.headers });
    const postId = created.json().id as number;
    await t.app.inject({
      method: 'PUT',
      url: communityPath(communityApi.moderatePost, { id: postId }),
      payload: { action: 'approve' },
      headers: expert.headers,
    });
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        t.app.inject({
          method: 'POST',
          url: communityPath(communityApi.responses, { postId }),
          payload: { content: `Spray a fungicide early, comment ${i}` },
          headers: commenter.headers,
        }),
      ),
    );
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(COMMENT_RATE_LIMIT.max);
    expect(results.filter((r) => r.statusCode === 429)).toHaveLength(30 - COMMENT_RATE_LIMIT.max);
    const rows = await t.deps.database.db.select().from(responses).where(eq(responses.authorId, commenter.id));
    expect(rows).toHaveLength(COMMENT_RATE_LIMIT.max);
  });
});
