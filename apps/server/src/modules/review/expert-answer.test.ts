import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnalysisList, AnalysisResult, ExpertReview, ReviewQueuePage } from '@kutu/contract';
import { analyses, notifications, posts, users } from '../../db/schema/index.ts';
import { createTestApp, joinSmsParts, type TestContext } from '../../../test/support/app.ts';
import { createUser, type TestUser } from '../../../test/support/users.ts';
import { fixture } from '../../../test/support/photos.ts';
import { render } from '../../i18n/i18n.ts';
import { verdictMessage } from './verdict-message.ts';
import {
  analysisApi,
  reviewApi,
  communityApi,
  communityPath,
  languages,
  reviewVerdicts,
  shortLinks,
} from '@kutu/contract';
import { isGsm7, plainSms, smsParts } from '../../lib/sms-text.ts';
import { insertField } from '../../../test/support/fields.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const detail = (id: number) => analysisApi.detailPath(id);
const review = (id: number) => reviewApi.reviewPath(id);
const leafCheck = (id: number) => reviewApi.leafCheckPath(id);

describe('the verdict SMS', () => {
  it('is one GSM-7 message with the advice’s first step and the link, in every language', () => {
    for (const language of languages)
      for (const crop of ['maize', 'beans', null])
        for (const verdict of reviewVerdicts)
          for (const revised of [false, true]) {
            const severity = verdict === 'common_rust' ? 'moderate' : null;
            const decision = { verdict, note: 'A long note.', severity } as const;
            const { sms } = verdictMessage(
              { id: 2147483647, crop, rust_class: 'common_rust' },
              decision,
              revised,
              'https://app.kutu.africa',
            );
            const text = render(language, sms);
            expect(isGsm7(plainSms(text)), text).toBe(true);
            expect(smsParts(text).length, text).toBe(1);
            expect(text).toMatch(/ https:\/\/app\.kutu\.africa\/a\/2147483647$/);
          }
  });

  it.each([
    ['en', 'Walk your field this week'],
    ['sw', 'Tembea shambani wiki hii'],
    ['lg', 'Tambula mu nnimiro wiiki eno'],
  ] as const)('names the first step, in %s', (language, step) => {
    const rust = { verdict: 'common_rust', note: null, severity: 'low' } as const;
    const analysis = { id: 7, crop: 'maize', rust_class: 'common_rust' } as const;
    const text = render(language, verdictMessage(analysis, rust, false, 'https://app.kutu.africa').sms);
    expect(text).toContain(step);
    // "Cannot tell" on a rust-looking photo gets the unsure advice's first step.
    const unsure = { verdict: 'cannot_tell', note: null, severity: null } as const;
    const other = render(language, verdictMessage(analysis, unsure, false, 'https://app.kutu.africa').sms);
    expect(other).not.toContain(step);
    // As sent: the empty follow-up leaves no gap.
    expect(smsParts(other).join(' ')).not.toMatch(/\{\{|smsFirstStep| {2}/);
  });
});

/** The expert's answer as the farmer's answer (docs/decisions/0049), and answers reaching their askers. */
describe('the expert answer leads', () => {
  let t: TestContext;
  let farmer: TestUser;
  let otherFarmer: TestUser;
  let expert: TestUser;
  let photoKey: string;

  beforeAll(async () => {
    t = await createTestApp();
    farmer = await createUser(t, 'farmer');
    otherFarmer = await createUser(t, 'farmer');
    expert = await createUser(t, 'expert');
    photoKey = await t.deps.storage.put('analyses/test', fixture('maize-common-rust.jpg'), 'jpg');
  });
  afterAll(() => t.close());

  async function seed(
    s: { rustClass: 'common_rust' | 'healthy' | 'other_disease' | null; unsure?: boolean; crop: 'maize' | 'beans' },
    owner = farmer,
  ): Promise<number> {
    const [row] = await t.deps.database.db
      .insert(analyses)
      .values({
        userId: owner.id,
        imagePath: photoKey,
        outcome: s.rustClass ? 'diagnosis' : 'not_leaf',
        rustClass: s.rustClass,
        confidence: 0.86,
        unsure: s.unsure ?? false,
        probabilities: { common_rust: 0.86, healthy: 0.08, other_disease: 0.06 },
        modelVersion: 'v-test',
        crop: s.crop,
        createdAt: t.clock.now(),
      })
      .returning({ id: analyses.id });
    return row.id;
  }
  const get = (url: string, who: TestUser) => t.app.inject({ method: 'GET', url, headers: who.headers });
  const decide = (id: number, payload: Record<string, string>) =>
    t.app.inject({ method: 'PUT', url: review(id), headers: expert.headers, payload });
  const smsTo = (who: TestUser) =>
    joinSmsParts(t.outbox.list().filter((m) => m.channel === 'sms' && m.to === who.phone));
  const noticesOf = async (who: TestUser, type: string) =>
    t.deps.database.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, who.id), eq(notifications.type, type)));

  it('leads the result, history and messages with a confirmed rust verdict, its severity band and the reminder', async () => {
    const id = await seed({ rustClass: 'common_rust', unsure: true, crop: 'maize' });
    const before = (await get(detail(id), farmer)).json() as AnalysisResult;
    expect(before.remind_at).toBeNull();
    expect(before.expert_answer).toBeNull();

    const res = await decide(id, { verdict: 'common_rust', severity: 'moderate', note: 'Spray this week.' });
    expect(res.statusCode).toBe(200);
    const after = (await get(detail(id), farmer)).json() as AnalysisResult;
    const rustAdvice = (await get(detail(await seed({ rustClass: 'common_rust', crop: 'maize' })), farmer)).json()
      .feedback as AnalysisResult['feedback'];
    expect(after.expert_answer).toMatchObject({
      verdict: 'common_rust',
      note: 'Spray this week.',
      severity: 'moderate',
      changed: false,
    });
    // The crop's rust advice, as a confident rust answer gets it, not the "not sure" advice.
    expect(after.expert_answer?.feedback.headline).toBe(rustAdvice.headline);
    expect(after.expert_answer?.feedback.advice_crop).toBe('maize');
    expect(after.expert_answer?.educational_resources.length).toBeGreaterThan(0);
    // What the model said stays as it was.
    expect(after.unsure).toBe(true);
    expect(after.feedback.headline).toBe(before.feedback.headline);
    // Advice to treat: the follow-up reminder, FOLLOW_UP_AFTER_DAYS after the expert's answer.
    expect(after.remind_at).toBe(new Date(t.clock.now().getTime() + 7 * DAY_MS).toISOString());

    const history = (await get(analysisApi.list, farmer)).json() as AnalysisList;
    const listed = history.results.find((r) => r.id === id)!;
    expect(listed.expert_answer?.verdict).toBe('common_rust');
    expect(listed.remind_at).toBe(after.remind_at);

    const [notice] = (await noticesOf(farmer, 'expert_review')).filter((n) => n.data.analysis_id === id);
    expect(notice.data).toMatchObject({ verdict: 'common_rust', severity: 'moderate', revised: false });
    const link = `${t.deps.config.publicUrl}${shortLinks.analysis(id)}`;
    // The SMS says what to do first, in one message (the day Kutu will ask is on the result's page).
    expect(smsTo(farmer)[0]?.text).toBe(
      `Kutu: an expert says: common rust, moderate severity. Walk your field this week and count the plants with rust. ${link}`,
    );
  });

  it('keeps the reminder the field already waits on, not a new one', async () => {
    const owner = await createUser(t, 'farmer');
    const earlier = await seed({ rustClass: 'common_rust', crop: 'maize' }, owner);
    const due = new Date(t.clock.now().getTime() + 3 * DAY_MS);
    // The farmer's maize field (photos written by hand have none: they go to it).
    const field = await insertField(t.deps.database.db, owner.id, 'maize');
    await t.deps.database.execute(
      `insert into follow_ups (user_id, field_id, analysis_id, crop, due_at, created_at) values (${owner.id}, ${field.id}, ${earlier}, 'maize', '${due.toISOString()}', now())`,
    );
    const id = await seed({ rustClass: 'common_rust', unsure: true, crop: 'maize' }, owner);
    expect((await decide(id, { verdict: 'common_rust' })).statusCode).toBe(200);
    const open = (await get(analysisApi.list, owner)).json() as AnalysisList;
    expect(open.results.find((r) => r.id === earlier)?.remind_at).toBe(due.toISOString());
  });

  it('says a revised verdict changed, and the reminder follows it away and back', async () => {
    const id = await seed({ rustClass: 'common_rust', unsure: true, crop: 'beans' });
    await decide(id, { verdict: 'common_rust', severity: 'low' });
    expect(((await get(detail(id), farmer)).json() as AnalysisResult).remind_at).not.toBeNull();

    expect((await decide(id, { verdict: 'healthy' })).statusCode).toBe(200);
    const healthy = (await get(detail(id), farmer)).json() as AnalysisResult;
    expect(healthy.expert_answer).toMatchObject({ verdict: 'healthy', severity: null, changed: true });
    expect(healthy.remind_at).toBeNull();
    const link = `${t.deps.config.publicUrl}${shortLinks.analysis(id)}`;
    // No follow-up after a healthy answer, and the healthy advice's first step.
    expect(smsTo(farmer)[0]?.text).toBe(
      `Kutu: an expert now says: Healthy. Keep walking your field once a week; look under the lower leaves. ${link}`,
    );
    const notices = (await noticesOf(farmer, 'expert_review')).filter((n) => n.data.analysis_id === id);
    expect(notices.find((n) => n.data.revised)?.message).toBe('An expert changed their answer on your photo: Healthy');
    expect(notices.find((n) => n.data.revised)?.data).toMatchObject({ verdict: 'healthy', revised: true });

    await decide(id, { verdict: 'common_rust', severity: 'severe' });
    const back = (await get(detail(id), farmer)).json() as AnalysisResult;
    expect(back.expert_answer).toMatchObject({ verdict: 'common_rust', severity: 'severe', changed: true });
    expect(back.remind_at).not.toBeNull();
  });

  it('lists resources for the crop of the result, and the general ones, never another crop first', async () => {
    const beanRust = (await get(detail(await seed({ rustClass: 'common_rust', crop: 'beans' })), farmer)).json();
    const titles = (beanRust as AnalysisResult).educational_resources.map((r) => r.title);
    expect(titles[0]).toBe('Bean rust');
    expect(titles.some((x) => /maize|corn|wheat/i.test(x))).toBe(false);
    const healthyBean = (await get(detail(await seed({ rustClass: 'healthy', crop: 'beans' })), farmer)).json();
    const healthyTitles = (healthyBean as AnalysisResult).educational_resources.map((r) => r.title);
    expect(healthyTitles.length).toBeGreaterThan(0);
    expect(healthyTitles).not.toContain('Maize pre- and post-harvest practices');
    const healthyMaize = (await get(detail(await seed({ rustClass: 'healthy', crop: 'maize' })), farmer)).json();
    expect((healthyMaize as AnalysisResult).educational_resources[0]?.title).toBe(
      'Maize pre- and post-harvest practices',
    );
  });

  it('never asks a farmer who chose the crop to choose it, and sends their "no leaf" photo to an expert once', async () => {
    const id = await seed({ rustClass: null, crop: 'maize' });
    const result = (await get(detail(id), farmer)).json() as AnalysisResult;
    const steps = [...result.feedback.advice, ...result.feedback.more].join(' ');
    expect(steps).not.toMatch(/choose maize or beans/i);
    expect(steps).toMatch(/send it to an expert/i);

    const leafCheckAs = (who: TestUser, analysisId = id) =>
      t.app.inject({ method: 'POST', url: leafCheck(analysisId), headers: who.headers });
    expect((await leafCheckAs(otherFarmer)).statusCode).toBe(404);
    expect((await leafCheckAs(expert)).statusCode).toBe(403);
    const sent = await leafCheckAs(farmer);
    expect(sent.statusCode).toBe(200);
    expect((sent.json() as ExpertReview).status).toBe('waiting');
    expect((await leafCheckAs(farmer)).statusCode).toBe(200);
    const queue = (await get(`${reviewApi.queue}?page_size=100`, expert)).json() as ReviewQueuePage;
    const entries = queue.results.filter((r) => r.analysis.id === id);
    expect(entries).toHaveLength(1);
    expect(entries[0]!.reason).toBe('The farmer says this photo shows a leaf; Kutu found none.');
    // A photo with a leaf is asked about with a question instead.
    expect((await leafCheckAs(farmer, await seed({ rustClass: 'healthy', crop: 'maize' }))).statusCode).toBe(409);
  });

  it("tells a post's author of an expert's answer, in the app and by the SMS they chose, opening the answer", async () => {
    const quiet = await createUser(t, 'farmer');
    await t.deps.database.db.update(users).set({ smsAlerts: false }).where(eq(users.id, quiet.id));
    for (const author of [farmer, quiet]) {
      const [post] = await t.deps.database.db
        .insert(posts)
        .values({
          authorId: author.id,
          title: 'Brown spots on my maize',
          content: 'What is this?',
          cropType: 'MAIZE',
          diseaseType: 'none',
          urgencyLevel: 'low',
          status: 'approved',
        })
        .returning({ id: posts.id });
      const sentBefore = smsTo(author).length;
      const answer = await t.app.inject({
        method: 'POST',
        url: communityPath(communityApi.responses, { postId: post.id }),
        headers: expert.headers,
        payload: { content: 'This is common rust: see the advice.' },
      });
      expect(answer.statusCode).toBe(201);
      const responseId = answer.json().id as number;
      const [notice] = await noticesOf(author, 'community_answer');
      expect(notice.message).toBe('An expert answered your post “Brown spots on my maize”');
      expect(notice.data).toEqual({ post_id: post.id, response_id: responseId });
      const link = `${t.deps.config.publicUrl}/account/addresses/community-posts?post=${post.id}&answer=${responseId}`;
      if (author === farmer) {
        expect(smsTo(author)[0]?.text).toBe(`Kutu: an expert answered your post. Read it: ${link}`);
      } else {
        expect(smsTo(author)).toHaveLength(sentBefore);
      }
    }
  });
});
