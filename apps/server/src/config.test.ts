import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';
import { MAX_PROXY_HOPS, parseTrustProxy } from './lib/trust-proxy.ts';

const secrets = { JWT_ACCESS_SECRET: 'a'.repeat(32), JWT_REFRESH_SECRET: 'b'.repeat(32) };

describe('configuration', () => {
  it('refuses TRUST_PROXY values that trust everyone in other words: a huge hop count, all IPv4-mapped IPv6', () => {
    for (const everyone of [
      '999999999999',
      String(MAX_PROXY_HOPS + 1),
      '::ffff:0:0/96',
      '::/8',
      '10.0.0.5, ::ffff:0:0/90',
    ]) {
      expect(() => loadConfig({ TRUST_PROXY: everyone }), everyone).toThrow(/TRUST_PROXY: .*trusts every address/);
    }
    expect(() => loadConfig({ TRUST_PROXY: '::ffff:0:0/100' })).toThrow(/TRUST_PROXY: ::ffff:0:0\/100 is too wide/);
    expect(parseTrustProxy(String(MAX_PROXY_HOPS))).toBe(MAX_PROXY_HOPS);
    expect(parseTrustProxy('::ffff:10.0.0.0/104, ::ffff:10.0.0.1')).toEqual(['::ffff:10.0.0.0/104', '::ffff:10.0.0.1']);
  });

  it('has working defaults for development', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ env: 'development', isProduction: false, port: 8080, authRateLimitMax: 600 });
    expect(config.jwt.accessTtlSeconds).toBe(15 * 60);
    expect(config.jwt.accessSecret.length).toBeGreaterThanOrEqual(32);
    expect(config.publicUrl).toBe('http://localhost:8080');
  });

  it('links emails to the port the server listens on unless PUBLIC_URL says otherwise', () => {
    expect(loadConfig({ PORT: '3000' }).publicUrl).toBe('http://localhost:3000');
    expect(loadConfig({ PORT: '3000', PUBLIC_URL: 'https://kutu.example/' }).publicUrl).toBe('https://kutu.example');
  });

  it('names the USSD code farmers dial, *384*123# unless USSD_CODE says otherwise', () => {
    expect(loadConfig({}).phone.ussdCode).toBe('*384*123#');
    expect(loadConfig({ USSD_CODE: '*284*7#' }).phone.ussdCode).toBe('*284*7#');
    expect(() => loadConfig({ USSD_CODE: '384123' })).toThrow(/USSD_CODE/);
  });

  it('refuses to start in production without JWT secrets, naming them', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(
      /Invalid configuration:\n {2}JWT_ACCESS_SECRET: JWT_ACCESS_SECRET is required in production\n {2}JWT_REFRESH_SECRET: JWT_REFRESH_SECRET is required in production/,
    );
    expect(() => loadConfig({ NODE_ENV: 'production', JWT_ACCESS_SECRET: secrets.JWT_ACCESS_SECRET })).toThrow(
      /JWT_REFRESH_SECRET is required in production/,
    );
  });

  it('starts in production with secrets, stricter auth limits and its own keys', () => {
    const config = loadConfig({
      NODE_ENV: 'production',
      ...secrets,
      SMTP_URL: 'smtps://kutu:pw@smtp.example.com:465',
      SMS_GATEWAY_URL: 'https://sms.example.com/send',
      SMS_GATEWAY_KEY: 'key',
      SMS_GATEWAY_USERNAME: 'kutu',
      AT_CALLBACK_SECRET: 'c'.repeat(24),
    });
    expect(config).toMatchObject({ isProduction: true, authRateLimitMax: 20 });
    expect(config.phone.callbackSecret).toBe('c'.repeat(24));
    expect(config.jwt).toMatchObject({
      accessSecret: secrets.JWT_ACCESS_SECRET,
      refreshSecret: secrets.JWT_REFRESH_SECRET,
    });
  });

  it('refuses to start in production without the gateway callback secret', () => {
    expect(() =>
      loadConfig({ NODE_ENV: 'production', ...secrets, SMS_TRANSPORT: 'log', MAIL_TRANSPORT: 'log' }),
    ).toThrow(/AT_CALLBACK_SECRET: AT_CALLBACK_SECRET is required in production/);
  });

  it('rejects short secrets and bad numbers with the variable named', () => {
    expect(() => loadConfig({ JWT_ACCESS_SECRET: 'short' })).toThrow(/JWT_ACCESS_SECRET/);
    expect(() => loadConfig({ AUTH_RATE_LIMIT_MAX: '0' })).toThrow(/AUTH_RATE_LIMIT_MAX/);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(loadConfig({ AUTH_RATE_LIMIT_MAX: '5', ACCESS_TOKEN_TTL_SECONDS: '600' })).toMatchObject({
      authRateLimitMax: 5,
      jwt: { accessTtlSeconds: 600 },
    });
  });
});
