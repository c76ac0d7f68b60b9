import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ApprovalRole,
  approvalRoles,
  type NotificationList,
  notificationsApi,
  roles,
  vettingApi,
} from '@kutu/contract';
import { roleApplications } from '../../db/schema/index.ts';
import { t as translate } from '../../i18n/i18n.ts';
import { createTestApp, type TestContext } from '../../../test/support/app.ts';
import { createUser, type TestUser } from '../../../test/support/users.ts';
import { lastSms } from '../../../test/support/auth-flow.ts';
import { errorOf } from '../../../test/support/errors.ts';
import { APPROVAL, GATE_REFUSALS } from './approval-roles.ts';

/**
 * Routes every signed-in account keeps, whatever its vetting: its own account, its notifications, and its data
 * to download and delete (privacy/erasure-guards.test.ts: a pending or refused applicant may take and erase it).
 */
const ACCOUNT_ROUTES = /^\/api\/(auth|notifications|privacy)\//;
/** An applicant's own application, which they read while they wait (any signed-in caller: `guard()`). */
const OWN_APPLICATION = ['GET /api/extension/me/'];

/** Routes each role is known to have: a role whose own routes went missing from the check fails here. */
const KNOWN_ROUTES: Record<ApprovalRole, string[]> = {
  expert: [
    'GET /api/expert-reviews/queue/',
    'PUT /api/expert-reviews/1/',
    'POST /api/expert-reviews/1/claim/',
    'PUT /api/community/posts/moderate/1/',
    'POST /api/model-training/jobs/',
    'GET /api/dashboard/',
    'POST /api/upload-training-images/',
    'POST /api/training-samples/from-analysis/',
    'POST /api/consultations/availability-slots/',
    'PUT /api/consultations/consultations/manage/',
  ],
  officer: [
    'GET /api/extension/districts/1/week/',
    'POST /api/extension/districts/1/actions/',
    'GET /api/extension/report.csv',
  ],
};

/**
 * The recipe "A role that needs approval" (docs/running.md, docs/decisions/0093), checked for every
 * role the contract lists: each is stored, gated at every one of its routes and decided the same way.
 */
describe('every role that needs approval', () => {
  let t: TestContext;
  let admin: TestUser;
  const callers = {} as Record<ApprovalRole, Record<'approved' | 'pending' | 'refused', TestUser>>;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await createUser(t, 'admin');
    for (const role of approvalRoles) {
      callers[role] = {
        approved: await createUser(t, role),
        pending: await createUser(t, role, { vetting: 'pending', language: 'sw' }),
        refused: await createUser(t, role, { vetting: 'refused' }),
      };
    }
  }, 180_000);
  afterAll(() => t.close());

  const send = (method: string, url: string, user: TestUser, payload?: object) =>
    t.app.inject({ method: method as 'GET', url, headers: user.headers, ...(payload && { payload }) });

  /** Every route that needs a token, from the app's own route table (the OpenAPI document it builds). */
  function signedInRoutes(): { method: string; url: string }[] {
    const doc = t.app.swagger() as { paths: Record<string, Record<string, { security?: object[] }>> };
    const routes = [];
    for (const [pattern, operations] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(operations)) {
        if (!op.security?.some((s) => 'bearer' in s)) continue;
        const url = pattern
          .replace('{language}', 'sw')
          .replace('{version}', 'v1')
          .replace(/\{\w+\}/g, '1');
        routes.push({ method: method.toUpperCase(), url });
      }
    }
    return routes;
  }
  const call = (route: { method: string; url: string }, user: TestUser) =>
    send(route.method, route.url, user, route.method === 'GET' || route.method === 'DELETE' ? undefined : {});

  it('names the same roles in the contract, the table, the gate and the sign-up roles', () => {
    expect(roleApplications.role.enumValues).toEqual([...approvalRoles]);
    expect(Object.keys(GATE_REFUSALS).sort()).toEqual([...approvalRoles].sort());
    for (const role of approvalRoles) expect(roles).toContain(role);
  });

  for (const role of approvalRoles) {
    // About a hundred routes, three callers each.
    it(`refuses a pending and a refused ${role} on every route an approved ${role} may use, in their language`, {
      timeout: 180_000,
    }, async () => {
      const { approved, pending, refused } = callers[role];
      const [pendingCode, pendingKey] = APPROVAL[role].gate.pending;
      const [refusedCode] = APPROVAL[role].gate.refused;
      const gateCodes = new Set<string>(Object.values(GATE_REFUSALS).flatMap((g) => [g.pending[0], g.refused[0]]));
      const checked: string[] = [];
      for (const route of signedInRoutes()) {
        const where = `${route.method} ${route.url}`;
        if (ACCOUNT_ROUTES.test(route.url) || OWN_APPLICATION.includes(where)) continue;
        const asApproved = await call(route, approved);
        // Some answers are files or empty (204); only an error body has a code.
        expect(gateCodes.has(errorOf(asApproved).code), `${where} as approved: ${asApproved.body}`).toBe(false);
        // A route of other roles refuses every caller of this one by role; the others are this role's.
        if (asApproved.statusCode === 403) continue;
        const asPending = await call(route, pending);
        expect(asPending.statusCode, `${where} as pending: ${asPending.body}`).toBe(403);
        expect(errorOf(asPending), where).toEqual({ code: pendingCode, message: translate('sw', pendingKey) });
        const asRefused = await call(route, refused);
        expect(asRefused.statusCode, `${where} as refused: ${asRefused.body}`).toBe(403);
        expect(errorOf(asRefused).code, where).toBe(refusedCode);
        checked.push(where);
      }
      expect(checked).toEqual(expect.arrayContaining(KNOWN_ROUTES[role]));
    });

    it(`lets only an administrator list, approve and refuse ${role} applications; the applicant is told in their language`, async () => {
      const { notices } = APPROVAL[role];
      const paths = vettingApi.of(role);
      const applicant = await createUser(t, role, { vetting: 'pending', language: 'lg' });
      const other = await createUser(t, role, { vetting: 'pending', language: 'sw' });
      for (const caller of Object.values(callers[role])) {
        expect((await send('GET', paths.applications, caller)).statusCode).toBe(403);
        expect((await send('POST', paths.approvePath(applicant.id), caller, {})).statusCode).toBe(403);
      }
      const page = (await send('GET', `${paths.applications}?status=pending&page_size=2`, admin)).json() as {
        count: number;
        next: number | null;
        results: { id: number; status: string }[];
        pending_count: number;
      };
      expect(page.results).toHaveLength(2);
      expect(page.next).toBe(2);
      expect(page.count).toBe(page.pending_count);
      expect(page.results.every((a) => a.status === 'pending')).toBe(true);
      // Another role's applicant is not in this role's list, nor decided through it.
      const others = approvalRoles.filter((r) => r !== role).map((r) => callers[r].pending.id);
      const all = (await send('GET', `${paths.applications}?page_size=100`, admin)).json() as typeof page;
      expect(all.results.map((a) => a.id)).toContain(applicant.id);
      for (const id of others) {
        expect(all.results.map((a) => a.id)).not.toContain(id);
        expect((await send('POST', paths.approvePath(id), admin, {})).statusCode).toBe(404);
      }

      const ok = await send('POST', paths.approvePath(applicant.id), admin, {});
      expect(ok.statusCode, ok.body).toBe(200);
      expect(ok.json()).toMatchObject({ id: applicant.id, role, status: 'approved', decided_by: admin.username });
      expect(ok.json()).toHaveProperty(role);
      const notes = (await send('GET', notificationsApi.list, applicant)).json() as NotificationList;
      expect(notes.results[0]).toMatchObject({
        type: notices.approved.type,
        message: translate('lg', notices.approved.message, { name: applicant.username }),
      });
      expect(lastSms(t, applicant.phone).text).toContain(translate('lg', notices.approved.sms));
      expect((await t.smtp.lastMailTo(applicant.email)).subject).toBe(translate('lg', notices.approved.subject));
      expect((await send('POST', paths.approvePath(applicant.id), admin, {})).statusCode).toBe(409);

      const reason = 'Tuma cheti chako';
      const no = await send('POST', paths.refusePath(other.id), admin, { reason });
      expect(no.statusCode, no.body).toBe(200);
      expect(no.json()).toMatchObject({ status: 'refused', reason });
      const told = (await send('GET', notificationsApi.list, other)).json() as NotificationList;
      expect(told.results[0]).toMatchObject({
        type: notices.refused.type,
        message: translate('sw', notices.refused.message, { name: other.username, reason }),
      });
    });
  }
});
