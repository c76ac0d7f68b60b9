import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shortLinks } from '@kutu/contract';
import { createTestApp, type TestContext } from '../../test/support/app.ts';

describe('the short links an SMS carries', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('send a result link and a follow-up link on to their screens', async () => {
    const result = await t.app.inject({ method: 'GET', url: shortLinks.analysis(7) });
    expect(result.statusCode).toBe(302);
    expect(result.headers.location).toBe('/account/addresses/analysis-history?analysis=7');
    const followUp = await t.app.inject({ method: 'GET', url: shortLinks.followUp(2147483647) });
    expect(followUp.statusCode).toBe(302);
    expect(followUp.headers.location).toBe('/account/addresses/image-analysis?follow_up=2147483647');
  });

  it('answer anything but a row id as a page that does not exist', async () => {
    for (const id of ['0', '007', 'abc', '2147483648', '1%2F..%2Fapi']) {
      const res = await t.app.inject({ method: 'GET', url: shortLinks.analysis(id) });
      expect(res.statusCode, id).toBe(404);
      expect(res.headers.location, id).toBeUndefined();
    }
  });
});
