import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createS3Storage } from '../../adapters/s3-storage.ts';
import { runWithRequestId } from '../../adapters/request-context.ts';
import { fixture, multipart } from '../../../test/support/photos.ts';
import { createTestApp, type TestContext } from '../../../test/support/app.ts';
import { createUser } from '../../../test/support/users.ts';
import { api, analysisApi } from '@kutu/contract';

const TOKEN = 'metrics-token-for-tests-0123456789';

describe('readiness, metrics and request ids', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp({ env: { METRICS_TOKEN: TOKEN } });
  });
  afterAll(() => t.close());

  it('readiness reports database, storage and the served model', async () => {
    const res = await t.app.inject({ url: '/api/health/ready/' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      status: 'ready',
      checks: { database: 'ok', storage: 'ok', model: t.deps.classifier.current().version },
    });
  });

  it('readiness answers 503 and names the part that fails (storage that does not answer)', async () => {
    const broken = await createTestApp({
      storage: createS3Storage({
        bucket: 'kutu',
        endpoint: 'http://127.0.0.1:1',
        credentials: { accessKeyId: 'x', secretAccessKey: 'y' },
      }),
    });
    try {
      const res = await broken.app.inject({ url: '/api/health/ready/' });
      expect(res.statusCode).toBe(503);
      expect(res.json().status).toBe('not_ready');
      expect(res.json().checks.database).toBe('ok');
      expect(res.json().checks.storage).toMatch(/^failed: /);
      // Liveness does not depend on storage: the process is alive, just not ready.
      expect((await broken.app.inject({ url: api.health })).statusCode).toBe(200);
    } finally {
      await broken.close();
    }
  });

  it('metrics need the token; they count requests per route, analyses by outcome and show the model', async () => {
    const farmer = await createUser(t, 'farmer');
    const form = multipart([{ filename: 'leaf.jpg', data: fixture('maize-common-rust.jpg') }]);
    const analysed = await t.app.inject({
      method: 'POST',
      url: analysisApi.detect,
      payload: form.payload,
      headers: { ...farmer.headers, ...form.headers },
    });
    expect(analysed.statusCode).toBe(201);
    const result = analysed.json();
    const outcome = result.outcome === 'not_leaf' ? 'not_leaf' : result.unsure ? 'unsure' : result.rust_class;

    expect((await t.app.inject({ url: '/metrics' })).statusCode).toBe(403);
    const wrong = await t.app.inject({ url: '/metrics', headers: { authorization: 'Bearer nope' } });
    expect(wrong.statusCode).toBe(403);
    const res = await t.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    const text = res.body;
    expect(text).toMatch(
      /kutu_http_request_duration_seconds_count\{route="\/api\/rust-detection\/",method="POST",status="201"\} [1-9]/,
    );
    expect(text).toMatch(new RegExp(`kutu_analyses_total\\{outcome="${outcome}"\\} [1-9]`));
    expect(text).toContain(`kutu_model_info{version="${t.deps.classifier.current().version}"} 1`);
    expect(text).toContain('kutu_training_jobs');
  });

  it('without a token only loopback clients may read metrics, whatever X-Forwarded-For says', async () => {
    const open = await createTestApp();
    try {
      expect((await open.app.inject({ url: '/metrics', remoteAddress: '127.0.0.1' })).statusCode).toBe(200);
      const outside = await open.app.inject({
        url: '/metrics',
        remoteAddress: '10.1.2.3',
        headers: { 'x-forwarded-for': '127.0.0.1' },
      });
      expect(outside.statusCode).toBe(403);
    } finally {
      await open.close();
    }
  });

  // Behind a proxy on the same host every client connects from loopback (docs/decisions/0028).
  it('without a token, a request relayed by a same-host proxy is not local', { timeout: 120_000 }, async () => {
    const open = await createTestApp();
    try {
      for (const headers of [
        { 'x-forwarded-for': '8.8.8.8' },
        { 'x-forwarded-for': '127.0.0.1' },
        { forwarded: 'for=8.8.8.8' },
        { 'x-real-ip': '8.8.8.8' },
        { via: '1.1 caddy' },
        { 'x-forwarded-host': 'kutu.example.org' },
        { 'x-forwarded-proto': 'https' },
      ]) {
        const res = await open.app.inject({ url: '/metrics', remoteAddress: '127.0.0.1', headers });
        expect(res.statusCode, JSON.stringify(headers)).toBe(403);
      }
      expect((await open.app.inject({ url: '/metrics', remoteAddress: '::1' })).statusCode).toBe(200);
    } finally {
      await open.close();
    }
  });

  // A same-host proxy that adds no header (nginx's default) looks like a local client: with a proxy
  // configured, the token is the only way in.
  it('without a token and with a proxy configured, not even a bare loopback request reads metrics', async () => {
    const proxied = await createTestApp({ env: { TRUST_PROXY: 'loopback' } });
    try {
      for (const remoteAddress of ['127.0.0.1', '::1']) {
        expect((await proxied.app.inject({ url: '/metrics', remoteAddress })).statusCode).toBe(403);
      }
    } finally {
      await proxied.close();
    }
  });

  it('every spelling of /metrics gets the same check (/metrics/, /METRICS, //metrics, /%6detrics)', {
    timeout: 120_000,
  }, async () => {
    const open = await createTestApp();
    try {
      for (const url of ['/metrics/', '/METRICS', '//metrics', '/%6detrics', '/Metrics//?x=1', '///metrics/']) {
        const outside = await open.app.inject({ url, remoteAddress: '203.0.113.9' });
        expect(outside.statusCode, url).toBe(403);
        const proxied = await open.app.inject({
          url,
          remoteAddress: '127.0.0.1',
          headers: { 'x-forwarded-for': '8.8.8.8' },
        });
        expect(proxied.statusCode, url).toBe(403);
        const local = await open.app.inject({ url, remoteAddress: '127.0.0.1' });
        expect(local.statusCode, url).toBe(200);
        expect(local.body, url).toContain('kutu_http_request_duration_seconds');
      }
      const withToken = await t.app.inject({ url: '/METRICS/', headers: { authorization: `Bearer ${TOKEN}` } });
      expect(withToken.statusCode).toBe(200);
      expect((await t.app.inject({ url: '//metrics' })).statusCode).toBe(403);
      // Other addresses are left alone.
      expect((await open.app.inject({ url: '/metricsx', remoteAddress: '127.0.0.1' })).statusCode).toBe(404);
    } finally {
      await open.close();
    }
  });

  it('the Caddyfile in deploy/ blocks every spelling of /metrics', () => {
    const caddyfile = fs.readFileSync(path.resolve(import.meta.dirname, '../../../../../deploy/Caddyfile'), 'utf8');
    const rule = caddyfile.match(/@metrics\s*\{\s*path_regexp\s+(\S+)\s*\}/);
    expect(rule, 'a path_regexp matcher named @metrics').not.toBeNull();
    expect(caddyfile).toMatch(/respond @metrics 404/);
    // Go's RE2 inline flag (?i) is JavaScript's i flag; the rest reads the same in both.
    const pattern = new RegExp(rule![1]!.replace(/^\(\?i\)/, ''), rule![1]!.startsWith('(?i)') ? 'i' : '');
    for (const p of ['/metrics', '/metrics/', '/METRICS', '//metrics', '/Metrics//']) expect(p).toMatch(pattern);
    for (const p of ['/api/metrics-guide/', '/metricsx', '/']) expect(p).not.toMatch(pattern);
  });

  it("keeps a proxy's request id, makes one otherwise, and echoes it", async () => {
    const given = await t.app.inject({ url: api.health, headers: { 'x-request-id': 'proxy-id-0001' } });
    expect(given.headers['x-request-id']).toBe('proxy-id-0001');
    const odd = await t.app.inject({ url: api.health, headers: { 'x-request-id': 'bad id\nwith newline' } });
    expect(odd.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('a job carries the id of the request that queued it', async () => {
    const seen: { requestId: string; data: object }[] = [];
    const jobs = t.deps.jobs;
    jobs.handle<{ n: number }>('request-id-test', async (data, ctx) => {
      seen.push({ requestId: ctx.requestId, data });
    });
    await jobs.startWorkers();
    await runWithRequestId('request-0042', () => jobs.send('request-id-test', { n: 1 }));
    const deadline = Date.now() + 20_000;
    while (seen.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(seen).toEqual([{ requestId: 'request-0042', data: { n: 1 } }]);
    expect((await jobs.depth())['request-id-test']).toBe(0);
  });
});
