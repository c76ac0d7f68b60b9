import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { notifications, posts } from '../../db/schema/index.ts';
import { fixture, multipart, type FilePart } from '../../../test/support/photos.ts';
import { createTestApp, type TestContext } from '../../../test/support/app.ts';
import { createUser, type TestUser } from '../../../test/support/users.ts';
import { communityApi, communityPath, notificationsApi } from '@kutu/contract';

const POSTS = communityApi.posts;
const ALL = communityApi.allPosts;
const MINE = communityApi.myPosts;
const LOG = communityApi.moderationLog;
const postUrl = (id: number) => communityPath(communityApi.post, { id });
const moderatePostUrl = (id: number) => communityPath(communityApi.moderatePost, { id });
const commentUrl = (postId: number) => communityPath(communityApi.responses, { postId });
const moderateCommentUrl = (id: number) => communityPath(communityApi.moderateResponse, { id });

const validPost = {
  title: 'Orange spots on maize leaves',
  content: 'Small orange pustules appeared on both sides of the leaves this week. What should I spray?',
  crop_type: 'MAIZE',
  disease_type: 'common_rust',
  urgency_level: 'high',
};

describe('community board', () => {
  let t: TestContext;
  let farmer: TestUser;
  let otherFarmer: TestUser;
  let expert: TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    expert = await createUser(t, 'expert');
  });
  afterAll(() => t.close());

  // Fresh farmers per test keep rate limits and "my posts" independent; the clock moves on so
  // posts made in one test never count against the next.
  beforeEach(async () => {
    farmer = await createUser(t, 'farmer');
    otherFarmer = await createUser(t, 'farmer');
    t.clock.advance(60 * 60_000);
  });

  const inject = (user: TestUser | null, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
    t.app.inject({ method, url, payload, headers: user ? user.headers : {} });

  async function makePost(user: TestUser = farmer, body: Record<string, unknown> = {}) {
    const res = await inject(user, 'POST', POSTS, { ...validPost, ...body });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: number; status: string };
  }
  async function moderate(id: number, action: string, reason?: string) {
    return inject(expert, 'PUT', moderatePostUrl(id), { action, ...(reason && { reason }) });
  }
  async function approvedPost(user: TestUser = farmer, body: Record<string, unknown> = {}) {
    const post = await makePost(user, body);
    expect((await moderate(post.id, 'approve')).statusCode).toBe(200);
    return post;
  }

  describe('roles', () => {
    it('answers anonymous callers with 401 on every route', async () => {
      const calls: [string, string][] = [
        ['POST', POSTS],
        ['GET', POSTS],
        ['GET', ALL],
        ['GET', MINE],
        ['GET', postUrl(1)],
        ['PUT', moderatePostUrl(1)],
        ['POST', commentUrl(1)],
        ['PUT', moderateCommentUrl(1)],
        ['GET', moderateCommentUrl(1)],
        ['GET', LOG],
      ];
      for (const [method, url] of calls) {
        const res = await inject(null, method as 'GET', url, method === 'GET' ? undefined : {});
        expect(res.statusCode, `${method} ${url}`).toBe(401);
        expect(res.json().error.code).toBe('UNAUTHENTICATED');
      }
    });

    it('keeps farmers off expert routes with 403', async () => {
      const post = await approvedPost();
      const comment = (await inject(farmer, 'POST', commentUrl(post.id), { content: 'Same here' })).json();
      const calls: [string, string, object | undefined][] = [
        ['GET', ALL, undefined],
        ['PUT', moderatePostUrl(post.id), { action: 'flag' }],
        ['PUT', moderateCommentUrl(comment.id), { action: 'approve' }],
        ['GET', moderateCommentUrl(post.id), undefined],
        ['GET', LOG, undefined],
      ];
      for (const [method, url, body] of calls) {
        const res = await inject(farmer, method as 'GET', url, body);
        expect(res.statusCode, `${method} ${url}`).toBe(403);
        expect(res.json().error).toMatchObject({ code: 'FORBIDDEN', message: 'Only experts can do this' });
      }
    });

    it('lets only farmers create posts and read their own list', async () => {
      expect((await inject(expert, 'POST', POSTS, validPost)).statusCode).toBe(403);
      expect((await inject(expert, 'GET', MINE)).statusCode).toBe(403);
    });
  });

  describe('creating posts', () => {
    it('creates a pending post with the spec wire fields', async () => {
      const res = await inject(farmer, 'POST', POSTS, validPost);
      expect(res.statusCode).toBe(201);
      expect(res.json()).toEqual({
        id: expect.any(Number),
        ...validPost,
        image: null,
        rust_detection: null,
        analysis: null,
        is_flagged: false,
        is_approved: false,
        status: 'pending',
        moderation_reason: null,
        created_at: t.clock.now().toISOString(),
        author: farmer.username,
        farmer_comments: [],
        expert_comments: [],
      });
    });

    it("accepts the spec's leaf_blust misspelling as leaf_blast", async () => {
      const post = await makePost(farmer, { disease_type: 'leaf_blust' });
      expect(post).toMatchObject({ disease_type: 'leaf_blast' });
      await moderate(post.id, 'approve');
      const listed = (await inject(farmer, 'GET', `${POSTS}?disease_type=leaf_blust&page_size=200`)).json();
      expect(listed.results.map((p: { id: number }) => p.id)).toContain(post.id);
    });

    it('takes a post without a disease as "I don\'t know" (stored as none)', async () => {
      const { disease_type: _, ...noDisease } = validPost;
      const res = await inject(farmer, 'POST', POSTS, noDisease);
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().disease_type).toBe('none');
    });

    it('refuses bad input with clear field messages', async () => {
      const cases: [Record<string, unknown>, string, string][] = [
        [{ title: 'Hey' }, 'title', 'Title must be at least 5 characters'],
        [{ title: 'x'.repeat(151) }, 'title', 'Title must be at most 150 characters'],
        [{ content: 'too short' }, 'content', 'Content must be at least 10 characters'],
        [{ content: 'x'.repeat(5001) }, 'content', 'Content must be at most 5000 characters'],
        [{ title: undefined }, 'title', 'Title is required'],
        [{ crop_type: 'CASSAVA' }, 'crop_type', 'Choose the crop: Maize, Wheat, Rice or Beans'],
        [{ disease_type: 'blight' }, 'disease_type', 'Choose a disease, or "I don\'t know"'],
        [{ urgency_level: 'urgent' }, 'urgency_level', 'Choose how urgent it is: Low, Medium or High'],
      ];
      for (const [patch, field, message] of cases) {
        const res = await inject(farmer, 'POST', POSTS, { ...validPost, ...patch });
        expect(res.statusCode, JSON.stringify(patch)).toBe(400);
        expect(res.json().error.code).toBe('VALIDATION_ERROR');
        expect(res.json().error.fields[field]).toBe(message);
      }
      // Whitespace does not count towards the length.
      const padded = await inject(farmer, 'POST', POSTS, { ...validPost, title: '    ab    ' });
      expect(padded.json().error.fields.title).toBe('Title must be at least 5 characters');
    });

    it('links only an analysis of the author', async () => {
      // The analyses table belongs to the analysis feature; raw SQL keeps this test to its stable columns.
      const insertAnalysis = async (userId: number) => {
        const { rows } = await t.deps.database.execute(
          `insert into analyses (user_id, image_path, outcome, rust_class, confidence, probabilities, model_version)
           values ($1, 'analyses/a.jpg', 'diagnosis', 'common_rust', 0.9, '{}'::jsonb, 'test') returning id`,
          [userId],
        );
        return { id: Number(rows[0].id) };
      };
      const mine = await insertAnalysis(farmer.id);
      const theirs = await insertAnalysis(otherFarmer.id);
      const ok = await makePost(farmer, { rust_detection: mine.id });
      // The post carries what the analysis found, for its card and comments page.
      expect(ok).toMatchObject({
        rust_detection: mine.id,
        analysis: {
          outcome: 'diagnosis',
          rust_class: 'common_rust',
          confidence: 0.9,
          unsure: false,
          has_heatmap: false,
        },
      });
      expect(((await makePost(farmer)) as { analysis?: unknown }).analysis).toBeNull();
      for (const id of [theirs.id, 999_999]) {
        const res = await inject(farmer, 'POST', POSTS, { ...validPost, rust_detection: id });
        expect(res.statusCode).toBe(400);
        expect(res.json().error.fields.rust_detection).toBe('Choose one of your own analysis results');
      }
    });

    it('rate limits posting per user with a clear 429', async () => {
      for (let i = 0; i < 5; i++) await makePost(farmer, { title: `Question number ${i}` });
      const res = await inject(farmer, 'POST', POSTS, validPost);
      expect(res.statusCode).toBe(429);
      expect(res.json().error).toEqual({
        code: 'RATE_LIMITED',
        message: 'You can make at most 5 posts every 10 minutes. Please wait a few minutes and try again.',
      });
      // Another farmer is not affected, and the window rolls on.
      await makePost(otherFarmer);
      t.clock.advance(10 * 60_000 + 1);
      await makePost(farmer);
    });
  });

  describe('posts with a photo (multipart)', () => {
    const leaf = fixture('maize-common-rust.jpg');
    const photo = (over: Partial<FilePart> = {}): FilePart => ({ filename: 'leaf.jpg', data: leaf, ...over });
    const imageUrl = (id: number) => communityPath(communityApi.postImage, { id });
    /** Every stored post photo (storage keys are `posts/<uuid>.<ext>`). */
    const storedPhotos = () => {
      const dir = path.join(t.dataDir, 'uploads', 'posts');
      return fs.existsSync(dir) ? fs.readdirSync(dir).sort() : [];
    };
    const postCount = async (user: TestUser) =>
      (await t.deps.database.db.select({ id: posts.id }).from(posts).where(eq(posts.authorId, user.id))).length;
    const send = (user: TestUser, files: FilePart[], fields: Record<string, string> = validPost) => {
      const form = multipart(files, fields);
      return t.app.inject({
        method: 'POST',
        url: POSTS,
        payload: form.payload,
        headers: { ...user.headers, ...form.headers },
      });
    };

    it('stores the photo and serves it to those who may see the post, 404 to others', async () => {
      const before = storedPhotos();
      const res = await send(farmer, [photo()]);
      expect(res.statusCode, res.body).toBe(201);
      const created = res.json();
      expect(created).toMatchObject({
        ...validPost,
        image: imageUrl(created.id),
        status: 'pending',
        author: farmer.username,
      });
      const added = storedPhotos().filter((f) => !before.includes(f));
      expect(added).toHaveLength(1);
      expect(added[0]).toMatch(/^[0-9a-f-]{36}\.jpg$/);

      const get = (user: TestUser | null) => inject(user, 'GET', imageUrl(created.id));
      for (const viewer of [farmer, expert]) {
        const img = await get(viewer);
        expect(img.statusCode).toBe(200);
        expect(img.headers['content-type']).toBe('image/jpeg');
        const served = await sharp(img.rawPayload).metadata();
        const original = await sharp(leaf).metadata();
        expect([served.format, served.width, served.height]).toEqual(['jpeg', original.width, original.height]);
      }
      // Pending: another farmer cannot see the post, nor its photo.
      const hidden = await get(otherFarmer);
      expect(hidden.statusCode).toBe(404);
      expect(hidden.json().error.message).toBe('Post not found');
      expect((await get(null)).statusCode).toBe(401);

      await moderate(created.id, 'approve');
      expect((await get(otherFarmer)).statusCode).toBe(200);
      const listed = (await inject(otherFarmer, 'GET', `${POSTS}?page_size=200`)).json();
      expect(listed.results.find((p: { id: number }) => p.id === created.id).image).toBe(imageUrl(created.id));

      // Flagged again: hidden from other farmers, still shown to its author.
      await moderate(created.id, 'flag');
      expect((await get(otherFarmer)).statusCode).toBe(404);
      expect((await get(farmer)).statusCode).toBe(200);
    });

    it('accepts a form without a photo, and answers 404 for the photo of a post without one', async () => {
      const before = storedPhotos();
      const res = await send(farmer, [], { ...validPost, rust_detection: '' });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toMatchObject({ ...validPost, image: null, rust_detection: null });
      expect(storedPhotos()).toEqual(before);
      const img = await inject(farmer, 'GET', imageUrl(res.json().id));
      expect(img.statusCode).toBe(404);
      expect(img.json().error.message).toBe('This post has no photo');
      expect((await inject(farmer, 'GET', imageUrl(999_999))).statusCode).toBe(404);
    });

    it('checks the fields with the same schema and messages as JSON, storing nothing', async () => {
      const before = storedPhotos();
      const cases: Record<string, string | undefined>[] = [
        { title: 'Hey' },
        { content: 'too short' },
        { title: undefined },
        { crop_type: 'CASSAVA' },
        { disease_type: 'blight' },
        { urgency_level: 'urgent' },
        { rust_detection: 'abc' },
        { rust_detection: '999999' },
      ];
      for (const patch of cases) {
        const fields = Object.fromEntries(
          Object.entries({ ...validPost, ...patch }).filter((e): e is [string, string] => e[1] !== undefined),
        );
        const json = await inject(farmer, 'POST', POSTS, {
          ...fields,
          ...(fields.rust_detection &&
            /^\d+$/.test(fields.rust_detection) && { rust_detection: Number(fields.rust_detection) }),
        });
        const form = await send(farmer, [photo()], fields);
        expect(form.statusCode, JSON.stringify(patch)).toBe(400);
        expect(form.json(), JSON.stringify(patch)).toEqual(json.json());
        expect(Object.keys(form.json().error.fields ?? {})).not.toHaveLength(0);
      }
      expect(storedPhotos()).toEqual(before);
      expect(await postCount(farmer)).toBe(0);
    });

    it('refuses what is not a JPEG or PNG with 415, and other bad uploads, storing nothing', async () => {
      const before = storedPhotos();
      const refused: [FilePart[], number, string][] = [
        [[photo({ filename: 'notes.jpg', data: fixture('text-renamed.jpg') })], 415, 'File type not supported'],
        [
          [photo({ filename: 'leaf.gif', data: fixture('leaf.gif'), contentType: 'image/gif' })],
          415,
          'File type not supported',
        ],
        [
          [photo({ filename: 'drawing.svg', data: fixture('drawing.svg'), contentType: 'image/svg+xml' })],
          415,
          'File type not supported',
        ],
        [[photo({ filename: 'cut.jpg', data: fixture('truncated.jpg') })], 400, 'The image is damaged or incomplete'],
        [[photo(), photo({ filename: 'second.jpg' })], 400, 'You can only upload one image at a time'],
        [[photo({ data: Buffer.concat([leaf, Buffer.alloc(5 * 1024 * 1024)]) })], 413, 'File too big (max: 5 MB)'],
      ];
      for (const [files, status, message] of refused) {
        const res = await send(farmer, files);
        expect(res.statusCode, files.map((f) => f.filename).join()).toBe(status);
        expect(res.json().error.message).toBe(message);
      }
      // A photo in another field is not silently dropped.
      const wrongField = await send(farmer, [photo({ field: 'photo' })]);
      expect(wrongField.statusCode).toBe(400);
      expect(wrongField.json().error.fields.image).toBe('Send the image in the field "image", not "photo"');
      expect(storedPhotos()).toEqual(before);
      expect(await postCount(farmer)).toBe(0);
    });

    it('stores nothing when the post is refused after its fields pass (rate limit)', async () => {
      for (let i = 0; i < 5; i++) await makePost(farmer, { title: `Question number ${i}` });
      const before = storedPhotos();
      const res = await send(farmer, [photo()]);
      expect(res.statusCode).toBe(429);
      expect(storedPhotos()).toEqual(before);
    });

    it('keeps farmers only, and checks the role before reading the upload', async () => {
      const res = await send(expert, [photo()]);
      expect(res.statusCode).toBe(403);
      const anonymous = multipart([photo()], validPost);
      const anon = await t.app.inject({ method: 'POST', url: POSTS, ...anonymous });
      expect(anon.statusCode).toBe(401);
    });
  });

  describe('post moderation', () => {
    it('walks every allowed transition and refuses the others with 409', async () => {
      const { id } = await makePost();
      const steps: [string, number, string | null][] = [
        ['unflag', 409, 'Only a flagged post can be unflagged; this post is pending'],
        ['flag', 200, 'flagged'],
        ['flag', 409, 'This post is already flagged'],
        ['unflag', 200, 'pending'],
        ['approve', 200, 'approved'],
        ['approve', 409, 'This post is already approved'],
        ['unflag', 409, 'Only a flagged post can be unflagged; this post is approved'],
        ['flag', 200, 'flagged'],
        ['approve', 200, 'approved'],
      ];
      for (const [action, status, expected] of steps) {
        const res = await moderate(id, action);
        expect(res.statusCode, `${action}`).toBe(status);
        if (status === 200) {
          expect(res.json()).toMatchObject({
            status: expected,
            is_flagged: expected === 'flagged',
            is_approved: expected === 'approved',
          });
        } else {
          expect(res.json().error).toEqual({ code: 'CONFLICT', message: expected });
        }
      }
    });

    it('refuses unknown actions and unknown posts', async () => {
      const { id } = await makePost();
      const bad = await moderate(id, 'delete');
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error.fields.action).toBe('Action must be flag, unflag or approve');
      expect((await moderate(999_999, 'approve')).statusCode).toBe(404);
      expect((await inject(expert, 'PUT', moderatePostUrl(0), { action: 'approve' })).statusCode).toBe(400);
    });

    it('shows farmers approved posts only: a flagged post leaves their list', async () => {
      const { id } = await makePost();
      const ids = async (user: TestUser) =>
        (await inject(user, 'GET', `${POSTS}?page_size=200`)).json().results.map((p: { id: number }) => p.id);
      expect(await ids(otherFarmer)).not.toContain(id);
      await moderate(id, 'approve');
      expect(await ids(otherFarmer)).toContain(id);
      expect((await inject(otherFarmer, 'GET', postUrl(id))).statusCode).toBe(200);
      await moderate(id, 'flag', 'Advertises a pesticide shop');
      expect(await ids(otherFarmer)).not.toContain(id);
      expect(await ids(farmer)).not.toContain(id);
      // Another farmer cannot open it; its author still can, with the reason.
      expect((await inject(otherFarmer, 'GET', postUrl(id))).statusCode).toBe(404);
      const own = await inject(farmer, 'GET', postUrl(id));
      expect(own.json()).toMatchObject({ status: 'flagged', moderation_reason: 'Advertises a pesticide shop' });
      expect((await inject(expert, 'GET', postUrl(id))).statusCode).toBe(200);
    });

    it("lists a farmer's own posts in every state, and nobody else's", async () => {
      const pending = await makePost(farmer, { title: 'Pending question' });
      const flagged = await makePost(farmer, { title: 'Flagged question' });
      await moderate(flagged.id, 'flag');
      await makePost(otherFarmer);
      const mine = (await inject(farmer, 'GET', MINE)).json();
      expect(mine.count).toBe(2);
      expect(mine.results.map((p: { id: number; status: string }) => [p.id, p.status])).toEqual([
        [flagged.id, 'flagged'],
        [pending.id, 'pending'],
      ]);
    });

    it('notifies the author of each moderation', async () => {
      const { id } = await makePost();
      await moderate(id, 'approve');
      await moderate(id, 'flag', 'Off topic');
      const rows = await t.deps.database.db.select().from(notifications).where(eq(notifications.userId, farmer.id));
      expect(rows.map((r) => [r.type, r.message, r.data])).toEqual([
        [
          'post_moderated',
          'Your post "Orange spots on maize leaves" has been approved and is visible to the community',
          { post_id: id, action: 'approve', status: 'approved' },
        ],
        [
          'post_moderated',
          'Your post "Orange spots on maize leaves" has been flagged by an expert and is hidden from the community',
          { post_id: id, action: 'flag', status: 'flagged', reason: 'Off topic' },
        ],
      ]);
    });
  });

  describe('comments', () => {
    it('opens comments on approved posts only', async () => {
      const { id } = await makePost();
      const own = await inject(farmer, 'POST', commentUrl(id), { content: 'Any news?' });
      expect(own.statusCode).toBe(409);
      expect(own.json().error.message).toBe('Comments open once the post is approved');
      // Someone else's unapproved post does not exist for another farmer.
      expect((await inject(otherFarmer, 'POST', commentUrl(id), { content: 'Hello' })).statusCode).toBe(404);
      expect((await inject(otherFarmer, 'POST', commentUrl(999_999), { content: 'Hello' })).statusCode).toBe(404);
    });

    it('refuses empty and overlong comments', async () => {
      const { id } = await approvedPost();
      for (const [content, message] of [
        ['   ', 'Comment is required'],
        ['x'.repeat(2001), 'Comment must be at most 2000 characters'],
      ]) {
        const res = await inject(otherFarmer, 'POST', commentUrl(id), { content });
        expect(res.statusCode).toBe(400);
        expect(res.json().error.fields.content).toBe(message);
      }
      expect((await inject(otherFarmer, 'POST', commentUrl(id), {})).json().error.fields.content).toBe(
        'Comment is required',
      );
    });

    it('shows a pending comment to its author only, until an expert approves it with an answer', async () => {
      const { id } = await approvedPost();
      const created = await inject(otherFarmer, 'POST', commentUrl(id), { content: '  I saw this too.  ' });
      expect(created.statusCode).toBe(201);
      const comment = created.json();
      expect(comment).toMatchObject({
        post_id: id,
        kind: 'farmer',
        content: 'I saw this too.',
        status: 'pending',
        is_approved: false,
        username: otherFarmer.username,
      });

      const seenBy = async (user: TestUser) => (await inject(user, 'GET', postUrl(id))).json();
      expect((await seenBy(farmer)).farmer_comments).toEqual([]);
      expect((await seenBy(otherFarmer)).farmer_comments).toMatchObject([{ id: comment.id, status: 'pending' }]);

      const res = await inject(expert, 'PUT', moderateCommentUrl(comment.id), {
        response_id: comment.id,
        action: 'approve',
        expert_comment: 'Spray a triazole fungicide early.',
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({
        response: { id: comment.id, status: 'approved', is_approved: true, is_flagged: false },
        expert_comment: { kind: 'expert', status: 'approved', reply_to: comment.id, username: expert.username },
      });

      const view = await seenBy(farmer);
      expect(view.farmer_comments).toEqual([
        {
          id: comment.id,
          content: 'I saw this too.',
          created_at: expect.any(String),
          username: otherFarmer.username,
          farmer: otherFarmer.username,
          status: 'approved',
        },
      ]);
      expect(view.expert_comments).toEqual([
        {
          id: res.json().expert_comment.id,
          content: 'Spray a triazole fungicide early.',
          created_at: expect.any(String),
          username: expert.username,
          expert: expert.username,
          reply_to: comment.id,
        },
      ]);
      // The list embeds the same comments.
      const listed = (await inject(farmer, 'GET', `${POSTS}?page_size=200`))
        .json()
        .results.find((p: { id: number }) => p.id === id);
      expect(listed.farmer_comments).toHaveLength(1);
      expect(listed.expert_comments).toHaveLength(1);

      const notes = await t.deps.database.db
        .select()
        .from(notifications)
        .where(eq(notifications.userId, otherFarmer.id));
      expect(notes.map((n) => [n.type, n.message])).toEqual([
        ['comment_moderated', 'Your comment on "Orange spots on maize leaves" has been approved and an expert replied'],
      ]);
    });

    it('walks comment transitions and refuses the others', async () => {
      const { id } = await approvedPost();
      const comment = (await inject(otherFarmer, 'POST', commentUrl(id), { content: 'Try ash?' })).json();
      const steps: [string, number, string][] = [
        ['flag', 200, 'flagged'],
        ['flag', 409, 'This comment is already flagged'],
        ['approve', 200, 'approved'],
        ['approve', 409, 'This comment is already approved'],
        ['flag', 200, 'flagged'],
      ];
      for (const [action, status, expected] of steps) {
        const res = await inject(expert, 'PUT', moderateCommentUrl(comment.id), { action });
        expect(res.statusCode, action).toBe(status);
        if (status === 200) expect(res.json().response.status).toBe(expected);
        else expect(res.json().error).toEqual({ code: 'CONFLICT', message: expected });
      }
      // A flagged comment is hidden from other farmers again.
      expect((await inject(farmer, 'GET', postUrl(id))).json().farmer_comments).toEqual([]);

      const mismatch = await inject(expert, 'PUT', moderateCommentUrl(comment.id), {
        response_id: comment.id + 1,
        action: 'approve',
      });
      expect(mismatch.statusCode).toBe(400);
      expect(mismatch.json().error.message).toBe('response_id does not match the comment in the path');
      expect((await inject(expert, 'PUT', moderateCommentUrl(999_999), { action: 'approve' })).statusCode).toBe(404);
      const badAction = await inject(expert, 'PUT', moderateCommentUrl(comment.id), { action: 'unflag' });
      expect(badAction.json().error.fields.action).toBe('Action must be approve or flag');
    });

    it('lets an expert answer a post directly, visible at once and not moderated', async () => {
      const { id } = await approvedPost();
      const res = await inject(expert, 'POST', commentUrl(id), { content: 'Remove infected leaves.' });
      expect(res.statusCode).toBe(201);
      expect(res.json()).toMatchObject({ kind: 'expert', status: 'approved', reply_to: null });
      const view = (await inject(otherFarmer, 'GET', postUrl(id))).json();
      expect(view.expert_comments).toMatchObject([{ content: 'Remove infected leaves.', expert: expert.username }]);
      const again = await inject(expert, 'PUT', moderateCommentUrl(res.json().id), { action: 'flag' });
      expect(again.statusCode).toBe(409);
      expect(again.json().error.message).toBe('Expert comments are not moderated');
    });

    it('lists comments for moderation: pending by default, filterable and paginated', async () => {
      const { id } = await approvedPost();
      const ids: number[] = [];
      for (let i = 0; i < 3; i++) {
        t.clock.advance(1000);
        ids.push((await inject(otherFarmer, 'POST', commentUrl(id), { content: `Comment ${i}` })).json().id);
      }
      await inject(expert, 'POST', commentUrl(id), { content: 'Expert answer' });
      await inject(expert, 'PUT', moderateCommentUrl(ids[0]), { action: 'approve' });

      const pending = (await inject(expert, 'GET', moderateCommentUrl(id))).json();
      expect(pending).toMatchObject({ count: 2, next: null, previous: null });
      expect(pending.results.map((r: { id: number }) => r.id)).toEqual([ids[2], ids[1]]);

      const page1 = (await inject(expert, 'GET', `${moderateCommentUrl(id)}?status=all&page_size=2`)).json();
      expect(page1).toMatchObject({ count: 3, next: 2, previous: null });
      const page2 = (await inject(expert, 'GET', `${moderateCommentUrl(id)}?status=all&page_size=2&page=2`)).json();
      expect(page2).toMatchObject({ count: 3, next: null, previous: 1 });
      expect(page2.results.map((r: { id: number }) => r.id)).toEqual([ids[0]]);

      const approved = (await inject(expert, 'GET', `${moderateCommentUrl(id)}?status=approved`)).json();
      expect(approved.results.map((r: { id: number }) => r.id)).toEqual([ids[0]]);
      const bad = await inject(expert, 'GET', `${moderateCommentUrl(id)}?status=gone`);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error.message).toBe('Status must be pending, approved, flagged or all');
      expect((await inject(expert, 'GET', moderateCommentUrl(999_999))).statusCode).toBe(404);
    });

    it('rate limits comments per user', async () => {
      const { id } = await approvedPost();
      for (let i = 0; i < 20; i++) {
        expect((await inject(otherFarmer, 'POST', commentUrl(id), { content: `c${i}` })).statusCode).toBe(201);
      }
      const res = await inject(otherFarmer, 'POST', commentUrl(id), { content: 'one more' });
      expect(res.statusCode).toBe(429);
      expect(res.json().error.message).toBe(
        'You can write at most 20 comments every 10 minutes. Please wait a few minutes and try again.',
      );
    });
  });

  describe('lists', () => {
    it('paginates newest first and filters by crop, disease, urgency and state', async () => {
      // A fresh app keeps counts exact.
      const t2 = await createTestApp();
      try {
        const f = await createUser(t2, 'farmer');
        const e = await createUser(t2, 'expert');
        const req = (user: TestUser, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
          t2.app.inject({ method, url, payload, headers: user.headers });
        const specs = [
          { crop_type: 'MAIZE', disease_type: 'common_rust', urgency_level: 'high' },
          { crop_type: 'BEANS', disease_type: 'common_rust', urgency_level: 'low' },
          { crop_type: 'RICE', disease_type: 'leaf_blast', urgency_level: 'medium' },
          { crop_type: 'MAIZE', disease_type: 'gray_leaf_spot', urgency_level: 'low' },
          { crop_type: 'WHEAT', disease_type: 'none', urgency_level: 'high' },
        ];
        const ids: number[] = [];
        for (const s of specs) {
          t2.clock.advance(1000);
          const res = await req(f, 'POST', POSTS, { ...validPost, ...s });
          ids.push(res.json().id);
        }
        for (const id of ids.slice(0, 4)) await req(e, 'PUT', moderatePostUrl(id), { action: 'approve' });

        const p1 = (await req(f, 'GET', `${POSTS}?page_size=3`)).json();
        expect(p1).toMatchObject({ count: 4, next: 2, previous: null });
        expect(p1.results.map((p: { id: number }) => p.id)).toEqual([ids[3], ids[2], ids[1]]);
        const p2 = (await req(f, 'GET', `${POSTS}?page_size=3&page=2`)).json();
        expect(p2).toMatchObject({ count: 4, next: null, previous: 1 });
        expect(p2.results.map((p: { id: number }) => p.id)).toEqual([ids[0]]);
        // Past the end: no rows, the count still right (it rides on the rows otherwise).
        expect((await req(f, 'GET', `${POSTS}?page_size=3&page=3`)).json()).toMatchObject({ count: 4, results: [] });

        const ids_ = async (url: string) => (await req(f, 'GET', url)).json().results.map((p: { id: number }) => p.id);
        expect(await ids_(`${POSTS}?crop_type=MAIZE`)).toEqual([ids[3], ids[0]]);
        expect(await ids_(`${POSTS}?disease_type=common_rust`)).toEqual([ids[1], ids[0]]);
        expect(await ids_(`${POSTS}?urgency_level=low&crop_type=BEANS`)).toEqual([ids[1]]);
        // The unapproved WHEAT post is only on the expert's list.
        expect(await ids_(`${POSTS}?crop_type=WHEAT`)).toEqual([]);
        const all = (await req(e, 'GET', ALL)).json();
        expect(all.count).toBe(5);
        const pendingOnly = (await req(e, 'GET', `${ALL}?status=pending`)).json();
        expect(pendingOnly.results.map((p: { id: number }) => p.id)).toEqual([ids[4]]);
        expect((await req(e, 'GET', `${ALL}?status=approved&crop_type=MAIZE`)).json().count).toBe(2);

        const bad = await req(f, 'GET', `${POSTS}?crop_type=CASSAVA`);
        expect(bad.statusCode).toBe(400);
        expect(bad.json().error.fields.crop_type).toBe('Choose the crop: Maize, Wheat, Rice or Beans');
        expect((await req(f, 'GET', `${POSTS}?page=0`)).statusCode).toBe(400);
        expect((await req(e, 'GET', `${ALL}?status=deleted`)).statusCode).toBe(400);
      } finally {
        await t2.close();
      }
    });
  });

  describe('moderation log', () => {
    it('records who did what, from which state to which, when and why', async () => {
      const { id } = await makePost();
      t.clock.advance(1000);
      await moderate(id, 'approve');
      t.clock.advance(1000);
      await moderate(id, 'flag', 'Selling seeds');
      await moderate(id, 'flag'); // refused: not logged
      const comment = (
        await inject(otherFarmer, 'POST', commentUrl(id), { content: 'x' }).then(async (r) => {
          expect(r.statusCode).toBe(404); // flagged post is hidden from other farmers
          await moderate(id, 'approve');
          return inject(otherFarmer, 'POST', commentUrl(id), { content: 'Nice' });
        })
      ).json();
      await inject(expert, 'PUT', moderateCommentUrl(comment.id), { action: 'flag', reason: 'Spam' });

      const log = (await inject(expert, 'GET', `${LOG}?target_type=post&target_id=${id}`)).json();
      expect(log.count).toBe(3);
      expect(log.results.map((r: Record<string, unknown>) => [r.action, r.from_status, r.to_status, r.reason])).toEqual(
        [
          ['approve', 'flagged', 'approved', null],
          ['flag', 'approved', 'flagged', 'Selling seeds'],
          ['approve', 'pending', 'approved', null],
        ],
      );
      expect(log.results[0]).toMatchObject({ actor: expert.username, target_type: 'post', target_id: id });
      // Each entry names the post (a comment's entry its post), for a title and a link.
      for (const r of log.results) expect(r).toMatchObject({ post_id: id, post_title: validPost.title });
      const c = (await inject(expert, 'GET', `${LOG}?target_type=response&target_id=${comment.id}`)).json();
      expect(c.results).toMatchObject([
        {
          action: 'flag',
          from_status: 'pending',
          to_status: 'flagged',
          reason: 'Spam',
          actor: expert.username,
          post_id: id,
          post_title: validPost.title,
        },
      ]);
      const paged = (await inject(expert, 'GET', `${LOG}?page_size=1`)).json();
      expect(paged.results).toHaveLength(1);
      expect(paged.next).toBe(2);
    });
  });

  describe('telling experts what waits for moderation', () => {
    const PENDING = communityApi.pendingCount;
    const pending = async () => (await inject(expert, 'GET', PENDING)).json();
    const unreadNotices = async (user: TestUser) =>
      (await inject(user, 'GET', `${notificationsApi.list}?unread=true&page_size=100`))
        .json()
        .results.filter((n: { type: string }) => n.type === 'moderation_pending');

    it('counts pending posts and farmer comments for experts only', async () => {
      expect((await inject(farmer, 'GET', PENDING)).statusCode).toBe(403);
      expect((await inject(null, 'GET', PENDING)).statusCode).toBe(401);
      const before = await pending();
      expect(before.total).toBe(before.posts + before.comments);
      const post = await makePost();
      expect(await pending()).toMatchObject({ posts: before.posts + 1, comments: before.comments });
      await moderate(post.id, 'approve');
      const comment = (await inject(otherFarmer, 'POST', commentUrl(post.id), { content: 'Same here' })).json();
      // An expert's answer does not wait for anyone.
      await inject(expert, 'POST', commentUrl(post.id), { content: 'Spray early.' });
      expect(await pending()).toMatchObject({ posts: before.posts, comments: before.comments + 1 });
      await inject(expert, 'PUT', moderateCommentUrl(comment.id), { action: 'approve' });
      expect(await pending()).toEqual(before);
    });

    it('notifies every active expert once until they read it, for new posts and comments', async () => {
      const second = await createUser(t, 'expert');
      const waiting = await createUser(t, 'expert', { vetting: 'pending' });
      const refused = await createUser(t, 'expert', { vetting: 'refused' });
      await inject(second, 'PUT', notificationsApi.readAll);
      expect(await unreadNotices(second)).toHaveLength(0);
      const post = await makePost();
      const [notice] = await unreadNotices(second);
      expect(notice.message).toBe('New posts or comments wait for moderation');
      await makePost(otherFarmer);
      expect(await unreadNotices(second)).toHaveLength(1);
      // Farmers are not told, nor experts whose application waits or was refused.
      expect(await unreadNotices(otherFarmer)).toHaveLength(0);
      expect(await unreadNotices(waiting)).toHaveLength(0);
      expect(await unreadNotices(refused)).toHaveLength(0);
      await inject(second, 'PUT', notificationsApi.markReadPath(notice.id));
      await moderate(post.id, 'approve');
      await inject(otherFarmer, 'POST', commentUrl(post.id), { content: 'Same on my farm' });
      expect(await unreadNotices(second)).toHaveLength(1);
    });
  });

  it('documents its routes in OpenAPI', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json().paths)).toEqual(
      expect.arrayContaining([
        communityApi.posts,
        '/api/community/posts/{id}/image/',
        '/api/community/responses/moderate/{id}/',
      ]),
    );
    const create = res.json().paths[communityApi.posts].post;
    expect(Object.keys(create.requestBody.content)).toEqual(['application/json', 'multipart/form-data']);
  });
});
