import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { createActiveUser, type E2EUser, signInAs } from './support.ts';

// On a phone, 72 half-hour slots were once 72 tall cards each repeating the expert's bio
// (six pages of about 4,100 px). They are grouped by expert and by day, the times as chips, the bio once.
test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, timezoneId: 'Africa/Kampala' });

const BIO = 'Extension officer in Mbale';
/** What the 72 slots took at 390 px before the grouping (one card each, 6 pages, the first 4,118 px tall): this spec on the build of 419919e. */
const BEFORE_PX = 21_951;

/** 36 half-hour slots from 09:00 EAT (06:00 UTC) on three days: 12 a day. */
async function halfHourSlots(request: APIRequestContext, expert: E2EUser) {
  const login = await request.post('/api/auth/login/', { data: { email: expert.email, password: expert.password } });
  const headers = { authorization: `Bearer ${(await login.json()).access}` };
  for (const day of [2, 3, 4]) {
    const first = new Date(Date.now() + day * 86_400_000);
    first.setUTCHours(6, 0, 0, 0);
    for (let i = 0; i < 12; i++) {
      const start = new Date(first.getTime() + i * 30 * 60_000);
      const res = await request.post('/api/consultations/availability-slots/', {
        headers,
        data: { start_time: start.toISOString(), end_time: new Date(start.getTime() + 30 * 60_000).toISOString() },
      });
      expect(res.ok(), await res.text()).toBeTruthy();
    }
  }
}

/** The height the given experts' cards take on the page now (the rest of the list is other tests' experts). */
async function cardsHeight(page: Page, names: string[]) {
  let sum = 0;
  for (const name of names) {
    for (const card of await page.getByRole('article', { name, exact: true }).all()) {
      sum += (await card.boundingBox())?.height ?? 0;
    }
  }
  return sum;
}

test('72 half-hour slots of two experts: one card per expert, a row of time chips per day, the bio once', async ({
  page,
  request,
}) => {
  const experts = [await createActiveUser(request, 'expert'), await createActiveUser(request, 'expert')];
  for (const expert of experts) await halfHourSlots(request, expert);
  const farmer = await createActiveUser(request, 'farmer');
  await signInAs(page, farmer, '/account/addresses/slots');
  const names = experts.map((e) => e.username);
  await expect(page.getByRole('article', { name: names[0], exact: true }).first()).toBeVisible();

  // Walk every page of the list, adding up what these two experts' slots take.
  let total = 0;
  let pages = 1;
  const firstPageHeight = await page.evaluate(() => document.documentElement.scrollHeight);
  for (;;) {
    total += await cardsHeight(page, names);
    const next = page.getByRole('button', { name: String(pages + 1), exact: true });
    if ((await next.count()) === 0) break;
    await next.click();
    pages += 1;
    await expect(page.getByRole('button', { name: String(pages), exact: true })).toHaveAttribute('data-active', 'true');
  }
  console.log(
    `slots at 390 px: first page ${firstPageHeight} px, ${pages} page(s), the 72 slots' cards ${Math.round(total)} px (before: ${BEFORE_PX} px)`,
  );

  // One card per expert, holding the bio once and every time as a chip.
  if (pages > 1) await page.getByRole('button', { name: '1', exact: true }).click();
  for (const expert of experts) {
    const card = page.getByRole('article', { name: expert.username, exact: true });
    await expect(card).toHaveCount(1);
    await expect(card.getByText(BIO)).toHaveCount(1);
    await expect(card.getByRole('button', { name: /^Book 09:00/ })).toHaveCount(3);
    await expect(card.getByRole('button', { name: /^Book / })).toHaveCount(36);
    await expect(card.getByRole('heading', { level: 3 })).toHaveCount(3);
  }
  // These two experts' cards, wherever they fall in the list: the page itself also holds the slots other
  // tests of the run published, so its height is printed above, not asserted.
  expect(total).toBeLessThan(BEFORE_PX / 4);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  // A chip books that time.
  const card = page.getByRole('article', { name: names[0], exact: true });
  await card
    .getByRole('button', { name: /^Book 09:30/ })
    .first()
    .click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('09:30');
  await dialog.getByLabel('Topic').fill('Rust on the lower leaves');
  await dialog.getByRole('button', { name: 'Book' }).click();
  await expect(page.getByText('Slot booking submitted for approval').first()).toBeVisible();
  await expect(card.getByRole('button', { name: /^Book / })).toHaveCount(35);
});
