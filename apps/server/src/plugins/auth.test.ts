import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Role } from '@kutu/contract';
import { createApprovalGate } from '../lib/approval-gate.ts';
import { GATE_REFUSALS } from '../modules/vetting/approval-roles.ts';
import { createLiveSessions } from '../lib/live-sessions.ts';
import { guard, publicRoute } from '../lib/route-schema.ts';
import { createAccessTokens } from '../lib/tokens.ts';
import { authPlugin } from './auth.ts';
import { registerErrorHandling } from './errors.ts';
import { registerLanguage } from './language.ts';
import { registerOpenApi } from './openapi.ts';

const tokens = createAccessTokens('a test secret of thirty-two characters!', 900);
const bearer = async (role: Role, userId = 7) => ({
  authorization: `Bearer ${await tokens.sign({ userId, role, sessionId: '00000000-0000-4000-8000-000000000001' })}`,
});

/**
 * Routes are guarded by default: a fake module's routes, one of each kind, on the real auth plugin.
 * The one that forgets to say who may call it is refused without a token and named by the check.
 */
describe('routes guarded by default', () => {
  const app = Fastify().withTypeProvider<ZodTypeProvider>();
  beforeAll(async () => {
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    registerLanguage(app, { accountLanguage: async () => undefined });
    registerErrorHandling(app);
    await registerOpenApi(app);
    const sessions = createLiveSessions(async () => true);
    await app.register(authPlugin, {
      tokens,
      sessions,
      approvals: createApprovalGate(async () => 'approved', GATE_REFUSALS),
    });
    const ok = { schema: { response: { 200: z.object({ ok: z.literal(true) }) } } };
    const handler = async () => ({ ok: true as const });
    app.get('/api/fake/forgotten/', ok, handler);
    app.get('/api/fake/old-style/', { ...ok, schema: { ...ok.schema, security: [{ bearer: [] }] } }, handler);
    app.get('/api/fake/open/', { ...ok, config: publicRoute }, handler);
    app.get('/api/fake/farmers/', { ...ok, config: guard('farmer') }, handler);
    app.get('/api/fake/anyone-signed-in/', { ...ok, config: guard() }, handler);
    app.get('/outside-the-api/', ok, handler);
    await app.ready();
  });
  afterAll(() => app.close());

  const get = async (url: string, headers: Record<string, string> = {}) =>
    (await app.inject({ url, headers })).statusCode;

  it('names every /api route that says neither guard(…) nor publicRoute, with what to do', () => {
    const problems = app.routeAccessProblems();
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(
      /^GET \/api\/fake\/forgotten\/ says neither guard\(…\) nor publicRoute: give it `config: guard\('farmer'\)`/,
    );
    expect(problems[0]).toContain('docs/CONTRIBUTING.md');
    expect(problems[1]).toMatch(/^GET \/api\/fake\/old-style\/ .*schema\.security/);
  });

  it('refuses a caller without a valid token unless the route is public', async () => {
    expect(await get('/api/fake/forgotten/')).toBe(401);
    expect(await get('/api/fake/farmers/')).toBe(401);
    expect(await get('/api/fake/anyone-signed-in/')).toBe(401);
    expect(await get('/api/fake/farmers/', { authorization: 'Bearer not-a-token' })).toBe(401);
    expect(await get('/api/fake/open/')).toBe(200);
    expect(await get('/outside-the-api/')).toBe(200);
    expect(await get('/api/fake/no-such-route/')).toBe(404);
  });

  it('lets a signed-in caller of the named roles through, and answers 403 to another role', async () => {
    expect(await get('/api/fake/farmers/', await bearer('farmer'))).toBe(200);
    expect(await get('/api/fake/farmers/', await bearer('expert'))).toBe(403);
    expect(await get('/api/fake/anyone-signed-in/', await bearer('admin'))).toBe(200);
    expect(await get('/api/fake/forgotten/', await bearer('expert'))).toBe(200);
  });

  it('gives the OpenAPI document the same answer: bearer for guarded and forgotten routes, none for public', async () => {
    const doc = (await app.inject({ url: '/api/docs/json' })).json() as {
      paths: Record<string, { get: { security: object[] } }>;
    };
    const bearerOnly = [{ bearer: [] }];
    expect(doc.paths['/api/fake/farmers/'].get.security).toEqual(bearerOnly);
    expect(doc.paths['/api/fake/anyone-signed-in/'].get.security).toEqual(bearerOnly);
    expect(doc.paths['/api/fake/forgotten/'].get.security).toEqual(bearerOnly);
    expect(doc.paths['/api/fake/open/'].get.security).toEqual([]);
  });

  it('stops an old-style route at start-up with the recipe', () => {
    expect(() => app.requireRole('farmer')).toThrow(/config: guard\('farmer'\)/);
    expect(() => app.authenticate).toThrow(/publicRoute/);
  });
});
