import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { parseTrustProxy } from '../../src/lib/trust-proxy.ts';
import { createTestApp, type TestContext } from '../support/app.ts';
import { productionEnv } from '../support/security.ts';
import { api } from '@kutu/contract';

/** H1: X-Forwarded-For from a client must not change req.ip unless TRUST_PROXY names the proxy. */
async function loginCodes(t: TestContext, n: number, opts: { remoteAddress?: string; forwarded: boolean }) {
  const codes: number[] = [];
  for (let i = 0; i < n; i++) {
    const res = await t.app.inject({
      method: 'POST',
      url: api.auth.login,
      remoteAddress: opts.remoteAddress,
      headers: opts.forwarded ? { 'x-forwarded-for': `203.0.113.${i + 1}` } : {},
      payload: { email: `nobody${i}@example.com`, password: 'Wr0ng!Password' },
    });
    codes.push(res.statusCode);
  }
  return codes;
}

const expectLimitedFrom21st = (codes: number[]) => {
  expect(codes.slice(0, 20)).toEqual(Array(20).fill(401));
  expect(codes.slice(20)).toEqual(Array(10).fill(429));
};

describe('H1: trusted proxies (production mode)', () => {
  // Each login costs an argon2 check (unknown emails too), so these take a while on a busy machine.
  const slow = { timeout: 120_000 };

  it('gives 30 logins with 30 different X-Forwarded-For a 429 from the 21st ...', slow, async () => {
    const prod = await createTestApp({ env: productionEnv() });
    try {
      expect(prod.deps.config.authRateLimitMax).toBe(20);
      expectLimitedFrom21st(await loginCodes(prod, 30, { forwarded: true }));
    } finally {
      await prod.close();
    }
  });

  it('... just as without the header', slow, async () => {
    const plain = await createTestApp({ env: productionEnv() });
    try {
      expectLimitedFrom21st(await loginCodes(plain, 30, { forwarded: false }));
    } finally {
      await plain.close();
    }
  });

  it('takes the client address from X-Forwarded-For only when the proxy is listed in TRUST_PROXY', slow, async () => {
    const behindProxy = await createTestApp({ env: productionEnv({ TRUST_PROXY: '10.0.0.0/8' }) });
    try {
      // Through the listed proxy, each forwarded client has its own limit ...
      const viaProxy = await loginCodes(behindProxy, 25, { remoteAddress: '10.1.2.3', forwarded: true });
      expect(viaProxy).toEqual(Array(25).fill(401));
      // ... while a client outside it cannot choose an address by sending the header itself.
      const direct = await loginCodes(behindProxy, 30, { remoteAddress: '198.51.100.7', forwarded: true });
      expectLimitedFrom21st(direct);
    } finally {
      await behindProxy.close();
    }
  });

  it('reads TRUST_PROXY as nothing, a hop count or addresses, and refuses "true"', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(parseTrustProxy('')).toBe(false);
    expect(parseTrustProxy('0')).toBe(false);
    expect(parseTrustProxy('2')).toBe(2);
    expect(parseTrustProxy('127.0.0.1, 10.0.0.0/8,::1,loopback')).toEqual([
      '127.0.0.1',
      '10.0.0.0/8',
      '::1',
      'loopback',
    ]);
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY: trusting every hop/);
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/33' })).toThrow(/TRUST_PROXY: not an address.*10\.0\.0\.0\/33/);
    expect(() => loadConfig({ TRUST_PROXY: 'proxy.example.com' })).toThrow(/TRUST_PROXY/);
  });

  // 0.0.0.0/0 once passed this check and then crashed Fastify at start (docs/decisions/0028).
  it('refuses ranges that trust everyone, like "true", and ranges too wide to be proxies', () => {
    for (const everyone of ['0.0.0.0/0', '::/0', '10.0.0.5, 0.0.0.0/0']) {
      expect(() => loadConfig({ TRUST_PROXY: everyone })).toThrow(
        /TRUST_PROXY: .*\/0 trusts every address, like "true"/,
      );
    }
    expect(() => loadConfig({ TRUST_PROXY: '0.0.0.0/1' })).toThrow(/TRUST_PROXY: 0\.0\.0\.0\/1 is too wide/);
    expect(() => loadConfig({ TRUST_PROXY: '2001::/15' })).toThrow(/TRUST_PROXY: 2001::\/15 is too wide/);
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/' })).toThrow(/TRUST_PROXY: not an address/);
    expect(parseTrustProxy('10.0.0.0/8, fd00::/16, 192.168.1.10/32')).toEqual([
      '10.0.0.0/8',
      'fd00::/16',
      '192.168.1.10/32',
    ]);
  });

  it('gives Fastify only values it can use (what it refuses crashed the start)', () => {
    for (const value of ['10.0.0.0/8, fd00::/16, 192.168.1.10/32, ::1', 'loopback,uniquelocal', '::ffff:10.0.0.1']) {
      const trustProxy = loadConfig({ TRUST_PROXY: value }).trustProxy;
      expect(Array.isArray(trustProxy)).toBe(true);
      expect(() => Fastify({ trustProxy: trustProxy as string[] }), value).not.toThrow();
    }
    // What Fastify itself refuses never gets this far.
    expect(() => Fastify({ trustProxy: ['0.0.0.0/0'] })).toThrow();
  });
});
