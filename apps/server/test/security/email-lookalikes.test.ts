import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailScriptProblem, normaliseEmail } from '../../src/modules/auth/email.ts';
import { farmerBody, post } from '../support/auth-flow.ts';
import { createTestApp, type TestContext } from '../support/app.ts';
import { errorOf } from '../support/errors.ts';
import { api } from '@kutu/contract';

/** L9: look-alike spellings of a registered email cannot make a second account. */
let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const register = (email: string) => post(t, api.auth.registerFarmer, farmerBody({ email }));

describe('L9: email look-alikes', () => {
  it('normalises NFKC, drops invisible characters, lowercases the domain, refuses other scripts', () => {
    expect(normaliseEmail('a\u200b@x.com')).toEqual({ email: 'a@x.com' });
    expect(normaliseEmail('\uff41@\uff58.com')).toEqual({ email: 'a@x.com' });
    expect(normaliseEmail('a\u00ad\u2060\ufeff@X.COM')).toEqual({ email: 'a@x.com' });
    expect(normaliseEmail('\u0430@x.com')).toEqual({ problem: emailScriptProblem });
    expect(normaliseEmail('jose\u0301@x.com')).toEqual({ problem: emailScriptProblem });
    expect(normaliseEmail('jos\u00e9@x.com')).toEqual({ problem: emailScriptProblem });
    expect(normaliseEmail('a@\u0435xample.com')).toEqual({ problem: emailScriptProblem });
  });

  it('answers "already registered" for zero-width and full-width spellings of an existing email', async () => {
    expect((await register('lookalike@x.com')).statusCode).toBe(201);
    for (const email of ['look\u200balike@x.com', 'lookalike\u200d@x.com', '\uff4cookalike@x.com']) {
      const res = await register(email);
      expect(res.statusCode, email).toBe(409);
      expect(errorOf(res).fields).toEqual({ email: 'Already registered' });
    }
  });

  it('refuses Cyrillic look-alikes and accented letters in NFC or NFD with a clear message', async () => {
    expect((await register('paul@x.com')).statusCode).toBe(201);
    for (const email of ['p\u0430ul@x.com', 'pa\u00fcl@x.com', 'pau\u0308l@x.com'.normalize('NFD')]) {
      const res = await register(email);
      expect(res.statusCode, email).toBe(400);
      expect(errorOf(res)).toMatchObject({ message: emailScriptProblem, fields: { email: emailScriptProblem } });
    }
  });

  it('stores and mails the normalised spelling', async () => {
    const res = await register('norm\u200b@x.com');
    expect(res.statusCode).toBe(201);
    await t.smtp.lastMailTo('norm@x.com');
  });
});
