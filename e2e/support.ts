import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { E2E_ADMIN } from './admin.ts';

export const leafPhoto = path.resolve(import.meta.dirname, '../apps/server/test/fixtures/maize-common-rust.jpg');

/** A camera-sized photo (noisy so it compresses like one) made from a dataset leaf. */
export async function phonePhoto({ width = 3000, height = 2250, quality = 88 } = {}): Promise<string> {
  const base = await sharp(leafPhoto).resize(width, height, { fit: 'fill' }).raw().toBuffer();
  let seed = 7;
  for (let i = 0; i < base.length; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    base[i] = Math.max(0, Math.min(255, base[i] + ((seed >> 16) % 41) - 20));
  }
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'kutu-e2e-photo-')), 'phone-photo.jpg');
  await sharp(base, { raw: { width, height, channels: 3 } })
    .jpeg({ quality })
    .toFile(file);
  return file;
}

let counter = 0;
export function uniqueName(prefix: string) {
  counter += 1;
  return `${prefix}${Date.now().toString(36)}${counter}`;
}

export const STRONG_PASSWORD = 'Gr0w!Smart2026';

/** The newest 4-digit code sent to this recipient (email address or phone), read from the dev outbox. */
export async function latestCode(request: APIRequestContext, to: string): Promise<string> {
  let code: string | undefined;
  await expect
    .poll(async () => {
      const res = await request.get('/api/dev/outbox/');
      const { results } = (await res.json()) as { results: { to: string; text: string }[] };
      const msg = results.find((m) => m.to.toLowerCase() === to.toLowerCase());
      code = msg?.text.match(/\b(\d{4})\b/)?.[1];
      return code;
    })
    .toBeTruthy();
  return code!;
}

const PART_MARK = / \((\d+)\/(\d+)\)$/;

/**
 * The newest SMS to a number as the farmer reads it: a long text goes out as numbered parts ("… (1/2)",
 * sms-text.ts), which the outbox lists newest first, so the parts are put back together in order.
 */
export async function newestSms(request: APIRequestContext, phone: string): Promise<string> {
  const { results } = (await (await request.get('/api/dev/outbox/')).json()) as {
    results: { to: string; text: string; channel: string }[];
  };
  const texts = results.filter((m) => m.channel === 'sms' && m.to === phone).map((m) => m.text);
  const count = Number(PART_MARK.exec(texts[0] ?? '')?.[2] ?? 1);
  return texts
    .slice(0, count)
    .reverse()
    .map((t) => t.replace(PART_MARK, ''))
    .join(' ');
}

export interface E2EUser {
  username: string;
  email: string;
  password: string;
  role: 'farmer' | 'expert';
  phone: string;
}

/** Signs up, verifies and activates a user through the API (the auth specs drive this flow in the UI). */
export async function createActiveUser(request: APIRequestContext, role: 'farmer' | 'expert'): Promise<E2EUser> {
  const username = uniqueName(role);
  const email = `${username}@example.com`;
  const phone = `+2567${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
  const body =
    role === 'farmer'
      ? {
          email,
          username,
          password: STRONG_PASSWORD,
          confirm_password: STRONG_PASSWORD,
          phone_number: phone,
          farm_location: 'Mbale',
          farm_size: 3,
          crop_types: ['MAIZE'],
          consent: { service: true, sms: true, training: false },
        }
      : {
          email,
          username,
          password: STRONG_PASSWORD,
          confirm_password: STRONG_PASSWORD,
          phone_number: phone,
          areas_of_expertise: 'Maize and bean diseases',
          certifications: 'MSc Plant Pathology',
          bio: 'Extension officer in Mbale',
          experience_years: 7,
          institution: 'NaCRRI',
          languages_spoken: 'English, Luganda',
          social_links: '',
          consent: { service: true, sms: true },
        };
  const reg = await request.post(`/api/auth/register/${role}/`, { data: body });
  expect(reg.status(), await reg.text()).toBe(201);
  const { token } = await reg.json();
  const emailCode = await latestCode(request, email);
  const ver = await request.post('/api/auth/verify-email/', { data: { token, verificationCode: emailCode } });
  expect(ver.ok(), await ver.text()).toBeTruthy();
  const smsCode = await latestCode(request, phone);
  const act = await request.post('/api/auth/activate/', {
    data: { otp: smsCode, token },
  });
  expect(act.ok(), await act.text()).toBeTruthy();
  if (role === 'expert') await approveExpert(request, username);
  return { username, email, password: STRONG_PASSWORD, role, phone };
}

/** The run's administrator's bearer header (e2e/admin.ts), signed in through the API. */
export async function adminHeaders(request: APIRequestContext): Promise<{ authorization: string }> {
  const res = await request.post('/api/auth/login/', {
    data: { email: E2E_ADMIN.email, password: E2E_ADMIN.password },
  });
  expect(res.ok(), await res.text()).toBeTruthy();
  return { authorization: `Bearer ${(await res.json()).access}` };
}

/** An administrator approves the expert `username` through the API, as the admin screen does (0027). */
export async function approveExpert(request: APIRequestContext, username: string) {
  const headers = await adminHeaders(request);
  const list = await request.get('/api/admin/applications/expert/?status=pending&page_size=200', { headers });
  expect(list.ok(), await list.text()).toBeTruthy();
  const { results } = (await list.json()) as { results: { id: number; username: string }[] };
  const application = results.find((a) => a.username === username);
  expect(application, `${username} applied`).toBeTruthy();
  const res = await request.post(`/api/admin/applications/expert/${application!.id}/approve/`, { headers });
  expect(res.ok(), await res.text()).toBeTruthy();
}

/** Logs in through the API and stores the session the way the web app does, then opens `path`. */
export async function signInAs(page: Page, user: E2EUser, path = '/account') {
  const res = await page.request.post('/api/auth/login/', { data: { email: user.email, password: user.password } });
  expect(res.ok(), await res.text()).toBeTruthy();
  const { access, refresh, user: record } = await res.json();
  await page.goto('/auth');
  await page.evaluate(
    ([a, r, u]) => {
      localStorage.setItem('accessToken', a);
      localStorage.setItem('refreshToken', r);
      localStorage.setItem('user', JSON.stringify(u));
    },
    [access, refresh, record] as const,
  );
  await page.goto(path);
}

/**
 * Every visible text on the screen that is not shown whole: its box runs past the side of an ancestor
 * that clips or scrolls (an ellipsis is such a clip), or past the phone's edge. Vertical scrolling is
 * fine; the closed menu drawer (inert) and screen-reader-only text are not on the screen.
 */
export function cutTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const cut: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent?.trim();
      const parent = node.parentElement;
      if (!text || !parent || parent.closest('[inert], script, style, [aria-hidden="true"]')) continue;
      // A user's own long name is shortened in the top bar on purpose; the account menu has it whole.
      if (parent.closest('[data-testid="topbar-username"]')) continue;
      const style = getComputedStyle(parent);
      if (style.visibility === 'hidden' || Number(style.opacity) === 0) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      const box = range.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      let hidden = false;
      for (let a: HTMLElement | null = parent; a && a !== document.body; a = a.parentElement) {
        const s = getComputedStyle(a);
        const rect = a.getBoundingClientRect();
        if (rect.width <= 1 || rect.height <= 1) {
          hidden = true; // visually hidden (screen readers only)
          break;
        }
        if (s.overflowX === 'visible') continue;
        const left = rect.left + a.clientLeft;
        if (box.left < left - 1 || box.right > left + a.clientWidth + 1) {
          cut.push(`${text.slice(0, 40)} (${Math.round(box.width)} px in ${Math.round(a.clientWidth)} px)`);
          hidden = true;
          break;
        }
      }
      if (!hidden && (box.right > window.innerWidth + 1 || box.left < -1))
        cut.push(`${text.slice(0, 40)} (off the side)`);
    }
    return [...new Set(cut)];
  });
}

/**
 * Signs in with the account's language set (so the server's notices are written in it too) and the app's
 * language chosen, then opens the sign-in address (the caller opens its screen); returns the API headers.
 */
export async function signInWithLanguage(
  page: Page,
  request: APIRequestContext,
  user: E2EUser,
  language: 'en' | 'sw' | 'lg',
) {
  const login = await request.post('/api/auth/login/', { data: { email: user.email, password: user.password } });
  expect(login.ok(), await login.text()).toBeTruthy();
  const headers = { authorization: `Bearer ${(await login.json()).access}` };
  // The account's language, so the server's notices are written in it too.
  const chosen = await request.put('/api/auth/language/', { data: { language }, headers });
  expect(chosen.ok(), await chosen.text()).toBeTruthy();
  const again = await page.request.post('/api/auth/login/', { data: { email: user.email, password: user.password } });
  const { access, refresh, user: record } = await again.json();
  await page.goto('/auth');
  await page.evaluate(
    ([a, r, u, l]) => {
      localStorage.setItem('accessToken', a);
      localStorage.setItem('refreshToken', r);
      localStorage.setItem('user', u);
      localStorage.setItem('language', l);
    },
    [access, refresh, JSON.stringify(record), language] as const,
  );
  return headers;
}
