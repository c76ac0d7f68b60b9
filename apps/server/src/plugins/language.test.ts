import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import type { Language } from '@kutu/contract';
import { message, t } from '../i18n/i18n.ts';
import { registerLanguage } from './language.ts';

/** A bare app with the language plugin; `x-user` stands in for a signed-in caller, whose account is in sw. */
async function appWith(reply: unknown) {
  const lookups: number[] = [];
  const app = Fastify();
  app.decorateRequest('auth', null);
  registerLanguage(app, {
    accountLanguage: async (userId: number): Promise<Language> => {
      lookups.push(userId);
      return 'sw';
    },
  });
  app.addHook('onRequest', async (req) => {
    if (req.headers['x-user']) req.auth = { userId: Number(req.headers['x-user']), role: 'expert', sessionId: 's' };
  });
  app.get('/', async (req) => ({ reply, language: await req.language(), again: await req.language() }));
  app.get('/plain', async () => reply);
  await app.ready();
  return { app, lookups };
}

describe('the request language and the reply hook', () => {
  it("is the account's language for a signed-in caller, looked up once per request, else Accept-Language, else English", async () => {
    const { app, lookups } = await appWith(null);
    const as = async (headers: Record<string, string>) => (await app.inject({ url: '/', headers })).json().language;
    expect(await as({ 'x-user': '7', 'accept-language': 'lg' })).toBe('sw');
    expect(lookups).toEqual([7]);
    expect(await as({ 'accept-language': 'lg-UG, en;q=0.5' })).toBe('lg');
    expect(await as({ 'accept-language': 'fr' })).toBe('en');
    expect(await as({})).toBe('en');
  });

  it('writes every Message under a `message` key in that language, at any depth, and leaves strings alone', async () => {
    const saved = message('success.consultations.weeklyStopped', { count: 3 });
    const { app } = await appWith({
      message: saved,
      skipped: [{ start_time: 'x', message: message('success.training.submitted') }],
      note: { message: 'already a string' },
    });
    const res = await app.inject({ url: '/plain', headers: { 'x-user': '1' } });
    expect(res.json()).toEqual({
      message: t('sw', 'success.consultations.weeklyStopped', { count: 3 }),
      skipped: [{ start_time: 'x', message: t('sw', 'success.training.submitted') }],
      note: { message: 'already a string' },
    });
  });

  it('looks nothing up for a reply without a Message', async () => {
    const { app, lookups } = await appWith({ message: 'plain', results: [{ id: 1 }] });
    const res = await app.inject({ url: '/plain', headers: { 'x-user': '1' } });
    expect(res.json()).toEqual({ message: 'plain', results: [{ id: 1 }] });
    expect(lookups).toEqual([]);
  });
});
