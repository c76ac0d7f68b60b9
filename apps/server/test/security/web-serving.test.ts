import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompress } from '../../../web/scripts/precompress.ts';
import { addressPattern } from '@kutu/contract/screen-preloads';
import { createTestApp, type TestContext } from '../support/app.ts';
import { api, outbreakApi } from '@kutu/contract';

/** A script big enough to be worth compressing (the build skips files under 1 KiB). */
const SCRIPT = `console.log(${JSON.stringify('kutu '.repeat(400))});`;
/** Stands in for onnxruntime's wasm: binary, repetitive like real code, worth compressing. */
const WASM = Buffer.concat([Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]), Buffer.alloc(8192, 0x0b)]);

/** A built web app as Vite lays it out: index.html, hashed files under assets/, plain files beside. */
function fakeWebDist(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kutu-web-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(
    path.join(dir, 'index.html'),
    '<!doctype html><html><head><script type="module" src="/assets/index-3f9a1c.js"></script></head><body></body></html>',
  );
  fs.writeFileSync(path.join(dir, 'assets', 'index-3f9a1c.js'), SCRIPT);
  fs.writeFileSync(path.join(dir, 'assets', 'index-77be02.css'), 'body{}');
  fs.writeFileSync(path.join(dir, 'assets', 'ort-wasm-simd-threaded-5c1d.wasm'), WASM);
  fs.writeFileSync(path.join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  // What apps/web/scripts/screen-preloads.ts writes: each address's screen files.
  fs.writeFileSync(
    path.join(dir, 'screen-preloads.json'),
    JSON.stringify({
      '/account': {
        scripts: ['/assets/AccountLayout-a1.js', '/assets/DashboardPage-d1.js'],
        styles: ['/assets/app-screens-c1.css'],
      },
      '/account/addresses/slots': { scripts: ['/assets/AccountLayout-a1.js', '/assets/SlotsPage-s1.js'], styles: [] },
      '/account/addresses/:id': {
        scripts: ['/assets/AccountLayout-a1.js', '/assets/PostCommentsPage-p1.js'],
        styles: [],
      },
      '*': { scripts: ['/assets/NotFoundPage-n1.js'], styles: [] },
    }),
  );
  precompress(dir);
  return dir;
}

const productionEnv = (webDist: string, publicUrl: string) => ({
  NODE_ENV: 'production',
  JWT_ACCESS_SECRET: 'a-production-access-secret-for-tests-0123456789',
  JWT_REFRESH_SECRET: 'a-production-refresh-secret-for-tests-0123456789',
  SMS_GATEWAY_URL: 'http://127.0.0.1:9/sms',
  SMS_GATEWAY_KEY: 'test',
  SMS_GATEWAY_USERNAME: 'sandbox',
  AT_CALLBACK_SECRET: 'gateway-callback-secret-for-tests',
  PUBLIC_URL: publicUrl,
  WEB_DIST: webDist,
  RATE_LIMIT_MAX: '10',
});

describe('serving the web app in production', () => {
  let webDist: string;
  let http: TestContext;
  let https: TestContext;
  beforeAll(async () => {
    webDist = fakeWebDist();
    http = await createTestApp({
      env: { ...productionEnv(webDist, 'http://192.168.1.20:8080'), CORS_ORIGINS: 'https://partner.example' },
    });
    https = await createTestApp({
      env: { ...productionEnv(webDist, 'https://kutu.example.org'), TRUST_PROXY: 'loopback' },
    });
  });
  afterAll(async () => {
    await http.close();
    await https.close();
    fs.rmSync(webDist, { recursive: true, force: true });
  });

  // Served over plain HTTP, the app was once blank (every asset upgraded to https).
  it('sends no HSTS and no upgrade-insecure-requests over plain HTTP', async () => {
    for (const url of ['/', '/community', api.health]) {
      const res = await http.app.inject({ method: 'GET', url });
      expect(res.headers['strict-transport-security'], url).toBeUndefined();
      expect(String(res.headers['content-security-policy']), url).toContain("default-src 'self'");
      expect(String(res.headers['content-security-policy']), url).not.toContain('upgrade-insecure-requests');
    }
  });

  it('sends both when the public URL is https, HSTS only on a reply to a request that came over https', async () => {
    const res = await https.app.inject({ method: 'GET', url: '/', headers: { 'x-forwarded-proto': 'https' } });
    expect(res.headers['strict-transport-security']).toMatch(/max-age=\d+/);
    expect(String(res.headers['content-security-policy'])).toContain('upgrade-insecure-requests');
    // The same address reached over plain HTTP (no proxy saying https): no HSTS on that reply.
    const plain = await https.app.inject({ method: 'GET', url: api.health });
    expect(plain.headers['strict-transport-security']).toBeUndefined();
  });

  it('lets an allowed origin use every method the API answers (the CORS preflight)', async () => {
    for (const method of ['PUT', 'PATCH', 'DELETE']) {
      const res = await http.app.inject({
        method: 'OPTIONS',
        url: outbreakApi.settings,
        headers: { origin: 'https://partner.example', 'access-control-request-method': method },
      });
      expect(res.statusCode, method).toBe(204);
      expect(String(res.headers['access-control-allow-methods']), method).toContain(method);
    }
  });

  // Static files once counted against the API limit, and hashed assets were max-age=0.
  it('keeps the web app out of the API rate limit, which still applies to the API', async () => {
    for (let i = 0; i < 30; i++) {
      for (const url of ['/', '/assets/index-3f9a1c.js', '/assets/index-77be02.css', '/favicon.svg']) {
        const res = await http.app.inject({ method: 'GET', url, remoteAddress: '10.0.0.7' });
        expect(res.statusCode, `${url} #${i}`).toBe(200);
      }
    }
    const replies = [];
    for (let i = 0; i < 12; i++) {
      replies.push(await http.app.inject({ method: 'GET', url: api.health, remoteAddress: '10.0.0.7' }));
    }
    expect(replies.slice(0, 10).map((r) => r.statusCode)).toEqual(Array(10).fill(200));
    const limited = replies[10];
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error.code).toBe('RATE_LIMITED');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('caches hashed assets for a year, the icons a day, and revalidates index.html and other files', async () => {
    const js = await http.app.inject({ method: 'GET', url: '/assets/index-3f9a1c.js' });
    expect(js.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    // Named three times on a first visit, the favicon was revalidated twice.
    const favicon = await http.app.inject({ method: 'GET', url: '/favicon.svg', headers: { 'accept-encoding': 'br' } });
    expect(favicon.headers['cache-control']).toBe('public, max-age=86400');
    for (const url of ['/', '/consultations/slots', '/index.html']) {
      const res = await http.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('no-cache');
    }
    expect((await http.app.inject({ method: 'GET', url: '/community' })).body).toContain('<!doctype html>');
  });

  // Vite's preload helper spent ~300 ms of a slow phone's main thread appending these links.
  it("sends each address's screen files as preload links in its index.html", async () => {
    const links = async (url: string) => {
      const res = await http.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'identity' } });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toMatch(/^text\/html/);
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(res.body, url).toMatch(/^<!doctype html>.*<\/head>/s);
      return [...res.body.matchAll(/<link rel="([\w]+)"(?: as="style")? crossorigin href="([^"]+)">/g)].map(
        (m) => `${m[1]} ${m[2]}`,
      );
    };
    expect(await links('/account')).toEqual([
      'modulepreload /assets/AccountLayout-a1.js',
      'modulepreload /assets/DashboardPage-d1.js',
      'preload /assets/app-screens-c1.css',
    ]);
    expect(await links('/account/?tab=1')).toContain('modulepreload /assets/DashboardPage-d1.js');
    expect(await links('/account/addresses/slots')).toContain('modulepreload /assets/SlotsPage-s1.js');
    expect(await links('/account/addresses/4b1e0c')).toContain('modulepreload /assets/PostCommentsPage-p1.js');
    expect(await links('/no/such/page')).toEqual(['modulepreload /assets/NotFoundPage-n1.js']);
    // index.html itself (what the service worker keeps) has no address, so no screen's links.
    const plain = await http.app.inject({ method: 'GET', url: '/index.html' });
    expect(plain.body).not.toContain('modulepreload');
  });

  it("matches addresses to the router's patterns as React Router ranks them", () => {
    const patterns = ['/', '/account', '/account/addresses/slots', '/account/addresses/:id', '*'];
    expect(addressPattern('/', patterns)).toBe('/');
    expect(addressPattern('/account/', patterns)).toBe('/account');
    expect(addressPattern('/account/addresses/slots', patterns)).toBe('/account/addresses/slots');
    expect(addressPattern('/account/addresses/abc', patterns)).toBe('/account/addresses/:id');
    expect(addressPattern('/account/addresses/abc/more', patterns)).toBe('*');
    expect(addressPattern('/accounts', patterns)).toBe('*');
    expect(addressPattern('/accounts', ['/account'])).toBeUndefined();
  });

  // HEAD / once answered 404 while GET / worked.
  it("answers HEAD on the app's pages as GET, without the body", async () => {
    for (const url of ['/', '/community', '/account/addresses/slots']) {
      const get = await http.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'identity' } });
      const head = await http.app.inject({ method: 'HEAD', url, headers: { 'accept-encoding': 'identity' } });
      expect(head.statusCode, url).toBe(200);
      expect(head.body, url).toBe('');
      expect(head.headers['content-type'], url).toBe(get.headers['content-type']);
      expect(head.headers['content-length'], url).toBe(get.headers['content-length']);
      expect(head.headers['cache-control'], url).toBe('no-cache');
    }
    expect((await http.app.inject({ method: 'HEAD', url: '/api/nothing/' })).statusCode).toBe(404);
    expect((await http.app.inject({ method: 'HEAD', url: '/assets/missing-0000.js' })).statusCode).toBe(404);
  });

  it('answers a missing asset with 404, never with index.html', async () => {
    const res = await http.app.inject({ method: 'GET', url: '/assets/index-000000.js' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.body).not.toContain('<!doctype html>');
  });

  // Uncompressed, the sign-in page was 1,132 KiB on a 2G phone (docs/decisions/0016).
  it('sends the build-time brotli or gzip file as the browser accepts, and says it varies', async () => {
    const url = '/assets/index-3f9a1c.js';
    const br = await http.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(String(br.headers.vary)).toMatch(/accept-encoding/i);
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.rawPayload.length).toBeLessThan(SCRIPT.length / 5);
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(SCRIPT);

    const gz = await http.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(SCRIPT);

    const plain = await http.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(SCRIPT);
  });

  // The address's index.html was the one text file sent uncompressed (5.7 KB on the sign-up screen).
  it("sends each address's index.html compressed as the browser accepts", async () => {
    const url = '/account/addresses/slots';
    const plain = await http.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'identity' } });
    const br = await http.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(String(br.headers.vary)).toMatch(/accept-encoding/i);
    expect(br.headers['content-type']).toMatch(/^text\/html/);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length);
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    const gz = await http.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip, br;q=0' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(plain.body);
    expect(plain.headers['content-encoding']).toBeUndefined();
  });

  // On HTTP/1.1 each of the sign-up screen's 45 scripts and styles repeated them: 27 KB a first visit.
  it('sends the document-only headers with documents, not with hashed scripts and styles', async () => {
    const page = await http.app.inject({ method: 'GET', url: '/' });
    for (const [url, encoding] of [
      ['/assets/index-3f9a1c.js', 'br'],
      ['/assets/index-3f9a1c.js', 'identity'],
      ['/assets/index-77be02.css', 'gzip, br'],
    ]) {
      const res = await http.app.inject({ method: 'GET', url, headers: { 'accept-encoding': encoding } });
      expect(res.statusCode, url).toBe(200);
      for (const name of ['content-security-policy', 'x-frame-options', 'cross-origin-opener-policy']) {
        expect(page.headers[name], name).toBeDefined();
        expect(res.headers[name], `${url} ${encoding} ${name}`).toBeUndefined();
      }
      // Immutable for a year: never revalidated, so no validators.
      expect(res.headers.etag, url).toBeUndefined();
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(res.headers['cross-origin-resource-policy'], url).toBe('same-origin');
    }
    // The plain files beside index.html (the service worker among them) keep every header.
    const favicon = await http.app.inject({ method: 'GET', url: '/favicon.svg' });
    expect(String(favicon.headers['content-security-policy'])).toContain("default-src 'self'");
  });

  // The offline-diagnosis runtime was 14 MB on the wire; brotli makes it 2.7 MB (decision 0017).
  it("sends onnxruntime's wasm compressed too, and a HEAD says the size on the wire", async () => {
    const url = '/assets/ort-wasm-simd-threaded-5c1d.wasm';
    const head = await http.app.inject({ method: 'HEAD', url, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(head.headers['content-encoding']).toBe('br');
    expect(head.headers['content-type']).toBe('application/wasm');
    const wire = Number(head.headers['content-length']);
    expect(wire).toBeLessThan(WASM.length / 10);

    const br = await http.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br' } });
    expect(br.rawPayload.length).toBe(wire);
    expect(zlib.brotliDecompressSync(br.rawPayload).equals(WASM)).toBe(true);
  });

  it('compresses API JSON above 1 KiB and leaves small replies alone', async () => {
    const docs = await http.app.inject({ method: 'GET', url: '/api/docs/json', headers: { 'accept-encoding': 'br' } });
    expect(docs.statusCode).toBe(200);
    expect(docs.headers['content-encoding']).toBe('br');
    const spec = JSON.parse(zlib.brotliDecompressSync(docs.rawPayload).toString());
    expect(spec.paths[api.health]).toBeDefined();
    const health = await http.app.inject({ method: 'GET', url: api.health, headers: { 'accept-encoding': 'br' } });
    expect(health.statusCode).toBe(200);
    expect(health.headers['content-encoding']).toBeUndefined();
  });
});
