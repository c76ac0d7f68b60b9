import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { posts } from '../../src/db/schema/index.ts';
import { createTestApp, type TestContext } from '../support/app.ts';
import { createUser, type TestUser } from '../support/users.ts';

/** Inside the repository (git-ignored) so that the client resolves `openapi-fetch` from node_modules. */
const OUT = path.join(import.meta.dirname, '.generated');

/** What a partner would write against the generated types: sign in, then list the community's posts. */
const CLIENT = `import createClient from 'openapi-fetch';
import type { paths } from './kutu-api.ts';
import { api, communityApi } from '@kutu/contract';

export async function signInAndListPosts(baseUrl: string, email: string, password: string) {
  const client = createClient<paths>({ baseUrl });
  const login = await client.POST(api.auth.login, { body: { email, password } });
  if (!login.data) throw new Error(\`sign-in failed: \${login.response.status}\`);
  const page = await client.GET(communityApi.posts, {
    params: { query: { page: 1, page_size: 10 } },
    headers: { authorization: \`Bearer \${login.data.access}\` },
  });
  if (!page.data) throw new Error(\`listing failed: \${page.response.status}\`);
  return { user: login.data.user.username, titles: page.data.results.map((p) => p.title), count: page.data.count };
}
`;

describe('a client generated from the OpenAPI document (openapi-typescript + openapi-fetch)', () => {
  let t: TestContext;
  let farmer: TestUser;
  let baseUrl: string;
  beforeAll(async () => {
    t = await createTestApp();
    farmer = await createUser(t, 'farmer');
    await t.deps.database.db.insert(posts).values({
      authorId: farmer.id,
      title: 'Orange spots on maize leaves',
      content: 'Small orange pustules appeared on both sides of the leaves this week. What should I spray?',
      cropType: 'MAIZE',
      diseaseType: 'common_rust',
      urgencyLevel: 'high',
      status: 'approved',
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
    fs.mkdirSync(OUT, { recursive: true });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(OUT, { recursive: true, force: true });
  });

  it('type-checks against the generated types, signs in and lists posts', async () => {
    const doc = (await t.app.inject({ url: '/api/docs/json' })).json();
    fs.writeFileSync(path.join(OUT, 'kutu-api.ts'), astToString(await openapiTS(doc)));
    fs.writeFileSync(path.join(OUT, 'client.ts'), CLIENT);

    const program = ts.createProgram([path.join(OUT, 'client.ts')], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2023,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      allowImportingTsExtensions: true,
      skipLibCheck: true,
      types: [],
    });
    const problems = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(problems).toEqual([]);

    const client = await import(pathToFileURL(path.join(OUT, 'client.ts')).href);
    const listed = await client.signInAndListPosts(baseUrl, farmer.email, farmer.password);
    expect(listed).toEqual({ user: farmer.username, titles: ['Orange spots on maize leaves'], count: 1 });
  });

  it('a wrong password comes back as the documented error, not as data', async () => {
    const client = await import(pathToFileURL(path.join(OUT, 'client.ts')).href);
    await expect(client.signInAndListPosts(baseUrl, farmer.email, 'not the password')).rejects.toThrow(
      'sign-in failed: 401',
    );
  });
});
