import fs from 'node:fs';
import path from 'node:path';
import ICAL from 'ical.js';
import { type APIRequestContext, type Download, expect, type Locator, type Page, test } from '@playwright/test';
import { createActiveUser, type E2EUser, signInAs } from './support.ts';

const KAMPALA = { timezoneId: 'Africa/Kampala' };
const PHONE_SIZE = { ...KAMPALA, viewport: { width: 390, height: 844 } };
const weekdays = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** The EAT date some days ahead (YYYY-MM-DD) and its weekday name. */
function eatDay(daysAhead: number): { date: string; weekday: string } {
  const d = new Date(Date.now() + daysAhead * 86_400_000 + 3 * 3_600_000);
  return { date: d.toISOString().slice(0, 10), weekday: weekdays[d.getUTCDay()] };
}

async function expectNotice(page: Page, text: string | RegExp) {
  await expect(page.getByText(text).first()).toBeVisible();
}

/** An expert's card shows their first days of times; this opens the rest, when there are more. */
async function showAllDays(card: Locator) {
  const more = card.getByRole('button', { name: /^Show all \d+ days$/ });
  if ((await more.count()) > 0) await more.click();
}

/**
 * The expert's card on the farmer's slots screen, on whichever page of experts it falls: the list puts
 * the expert with the soonest time first, so experts that other tests (or earlier runs on the same
 * database) left with sooner times push this one to a later page.
 */
async function expertCard(page: Page, name: string): Promise<Locator> {
  const card = page.getByRole('article', { name, exact: true });
  const cards = page.getByRole('article');
  const next = page.getByRole('button', { name: 'Next page' });
  await expect(cards.first()).toBeVisible();
  while ((await card.count()) === 0) {
    // The page buttons load just after the list (decision 0121): wait for them before saying there are none.
    await next.waitFor({ timeout: 5_000 }).catch(() => undefined);
    if ((await next.count()) === 0 || !(await next.isEnabled())) throw new Error(`No card of ${name} on any page`);
    const first = await cards.first().getAttribute('aria-label');
    await next.click();
    // The old page stays on screen until the next one arrives; each page starts with another expert.
    await expect(cards.first()).not.toHaveAttribute('aria-label', first ?? '');
  }
  return card;
}

/** A saved .ics, parsed by ical.js: a parser that rejects what is not RFC 5545. */
function parseIcs(download: Download, file: string) {
  const text = fs.readFileSync(file, 'utf8');
  const cal = new ICAL.Component(ICAL.parse(text));
  expect(download.suggestedFilename()).toMatch(/^kutu-consultation-\d+\.ics$/);
  return { cal, event: cal.getFirstSubcomponent('vevent')!, text };
}
async function downloadIcs(page: Page, button: ReturnType<Page['getByRole']>) {
  const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
  return parseIcs(download, (await download.path())!);
}

/** A real leaf photo analysed for the farmer through the API. */
async function analyse(request: APIRequestContext, user: E2EUser) {
  const login = await request.post('/api/auth/login/', { data: { email: user.email, password: user.password } });
  const headers = { authorization: `Bearer ${(await login.json()).access}` };
  const dir = path.resolve(import.meta.dirname, '../datasets/rust3/common_rust');
  const leaf = fs.readdirSync(dir).find((f) => f.endsWith('.jpg'))!;
  const res = await request.post('/api/rust-detection/', {
    headers,
    multipart: { image: { name: leaf, mimeType: 'image/jpeg', buffer: fs.readFileSync(path.join(dir, leaf)) } },
  });
  expect(res.ok(), await res.text()).toBeTruthy();
}

test('weekly availability by phone call, a booking with a topic and an analysis, approval, .ics for both, cancellation', async ({
  browser,
  request,
}) => {
  const expert = await createActiveUser(request, 'expert');
  const farmer = await createActiveUser(request, 'farmer');
  await analyse(request, farmer);
  const { weekday } = eatDay(2);

  // The expert, on a phone, offers 09:00–10:00 EAT every such weekday, by phone call.
  const expertPage = await (await browser.newContext(PHONE_SIZE)).newPage();
  await signInAs(expertPage, expert, '/account/addresses/availability-slots');
  await expect(expertPage.getByRole('heading', { name: 'Weekly availability', exact: true })).toBeVisible();
  await expertPage.getByRole('button', { name: 'Save weekly availability' }).click();
  await expect(expertPage.getByText('Choose at least one day')).toBeVisible();
  // Mantine's chips and segmented controls hide their inputs: a person taps the label.
  await expertPage.getByText(weekday, { exact: true }).click();
  await expect(expertPage.getByRole('checkbox', { name: weekday })).toBeChecked();
  await expertPage.getByLabel('From (EAT)').fill('09:00');
  await expertPage.getByLabel('Until (EAT)').fill('10:00');
  await expertPage.getByLabel('Length of each slot').selectOption('60');
  const weekly = expertPage.locator('form').filter({ hasText: 'Save weekly availability' });
  await expect(weekly.getByRole('radio', { name: 'Phone call' })).toBeChecked();
  await expertPage.getByRole('button', { name: 'Save weekly availability' }).click();
  await expectNotice(expertPage, /Weekly availability saved: [45] slots for the next 4 weeks\./);
  await expect(expertPage.getByRole('article', { name: 'Weekly availability' })).toContainText(
    `${weekday} · 09:00–10:00 EAT · 60 minutes · Phone call`,
  );
  const width = await expertPage.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(390);

  // The farmer books the first of them with a topic and the analysis.
  const farmerPage = await (await browser.newContext(PHONE_SIZE)).newPage();
  await signInAs(farmerPage, farmer, '/account/addresses/slots');
  // One card for the expert, a time chip per slot (e2e/slots-grouped.spec.ts).
  const card = await expertCard(farmerPage, expert.username);
  await expect(card).toContainText('Phone call');
  const nineOClock = card.getByRole('button', { name: /^Book 09:00–10:00, Phone call$/ });
  await expect(nineOClock.first()).toBeVisible();
  await showAllDays(card);
  const offered = await nineOClock.count();
  // The last of them, a week apart from the first: the expert's soonest time stays, and so does the card's
  // place in the list (booking the soonest could move it to another page).
  const booked = eatDay(2 + 7 * (offered - 1)).date;
  await nineOClock.last().click();
  const dialog = farmerPage.getByRole('dialog');
  await dialog.getByRole('button', { name: 'Book' }).click();
  await expect(dialog.getByText('Say in a few words what you want to talk about')).toBeVisible();
  await dialog.getByLabel('Topic').fill('Orange spots on my maize, spreading fast');
  const attach = dialog.getByLabel('Attach one of your analyses (optional)');
  await attach.selectOption({ index: 1 });
  await dialog.getByRole('button', { name: 'Book' }).click();
  await expectNotice(farmerPage, 'Slot booking submitted for approval');
  await showAllDays(card);
  await expect(nineOClock).toHaveCount(offered - 1);

  // The expert sees the topic and the analysis, no phone yet, and approves at the slot's start.
  await expertPage.goto('/account/addresses/bookings');
  const booking = expertPage.getByRole('article', { name: farmer.username });
  await expect(booking).toContainText('Orange spots on my maize, spreading fast');
  await expect(booking).toContainText(/Attached analysis: Common rust \(Puccinia sorghi\) \(\d+%\)/);
  await expect(booking).not.toContainText(farmer.phone);
  await booking.getByRole('button', { name: 'Approve Booking' }).click();
  const approve = expertPage.getByRole('dialog');
  // The slot fixes the time: the dialog confirms it, asking for no date.
  await expect(approve.getByTestId('approve-time')).toContainText('09:00');
  await expect(approve.locator('input')).toHaveCount(0);
  await approve.getByRole('button', { name: 'Approve this time' }).click();
  await expectNotice(expertPage, 'Booking approved');
  await expect(booking).toContainText(`Farmer's phone: ${farmer.phone}`);
  const forExpert = await downloadIcs(expertPage, booking.getByRole('button', { name: 'Add to calendar (.ics)' }));
  expect(String(forExpert.event.getFirstPropertyValue('attendee')).toLowerCase()).toBe(`mailto:${farmer.email}`);
  expect(forExpert.event.getFirstPropertyValue('description')).toContain(`Farmer's phone: ${farmer.phone}`);

  // The farmer sees how and the expert's phone, and gets the same event.
  await farmerPage.goto('/account/addresses/my-bookings');
  const mine = farmerPage.getByRole('article', { name: expert.username });
  await expect(mine).toContainText('Approved');
  await expect(mine).toContainText(`Expert's phone: ${expert.phone}`);
  await expect(mine).toContainText(/Scheduled: .*09:00/);
  const forFarmer = await downloadIcs(farmerPage, mine.getByRole('button', { name: 'Add to calendar (.ics)' }));
  expect(forFarmer.cal.getFirstPropertyValue('method')).toBe('REQUEST');
  expect(String(forFarmer.event.getFirstPropertyValue('organizer')).toLowerCase()).toBe(`mailto:${expert.email}`);
  expect(forFarmer.event.getFirstPropertyValue('uid')).toBe(forExpert.event.getFirstPropertyValue('uid'));
  expect(forFarmer.event.getFirstPropertyValue('description')).toContain(
    'Topic: Orange spots on my maize, spreading fast',
  );
  expect(forFarmer.event.getFirstPropertyValue('location')).toBe(`Phone call: ${expert.phone}`);
  // 09:00 East Africa Time is 06:00 UTC.
  expect(forFarmer.text).toContain(`DTSTART:${booked.replaceAll('-', '')}T060000Z`);

  // The approval SMS is in the development outbox.
  const outbox = await (await request.get('/api/dev/outbox/')).json();
  const sms = outbox.results.find((m: { channel: string; to: string }) => m.channel === 'sms' && m.to === farmer.phone);
  expect(sms?.text).toMatch(/^Kutu: consultation confirmed .*09:00 EAT, phone call\. Expert/);

  // The farmer cancels; the slot is bookable again, and the .ics now cancels the event.
  await mine.getByRole('button', { name: 'Cancel booking' }).click();
  await farmerPage.getByRole('dialog').getByRole('button', { name: 'Cancel consultation' }).click();
  await expectNotice(farmerPage, 'Consultation cancelled');
  await expect(mine).toContainText('You cancelled this consultation.');
  const cancelled = await downloadIcs(farmerPage, mine.getByRole('button', { name: 'Remove from calendar (.ics)' }));
  expect(cancelled.cal.getFirstPropertyValue('method')).toBe('CANCEL');
  expect(cancelled.event.getFirstPropertyValue('status')).toBe('CANCELLED');
  expect(cancelled.event.getFirstPropertyValue('sequence')).toBe(1);
  await farmerPage.goto('/account/addresses/slots');
  await expertCard(farmerPage, expert.username);
  // The card first shows its first days: wait for it before opening the rest.
  await expect(nineOClock.first()).toBeVisible();
  await showAllDays(card);
  await expect(nineOClock).toHaveCount(offered);
});

test('a one-off farm visit: the expert rejects with a reason, the slot opens again and can be deactivated', async ({
  browser,
  request,
}) => {
  const expert = await createActiveUser(request, 'expert');
  const farmer = await createActiveUser(request, 'farmer');
  const { date } = eatDay(4);

  const expertPage = await (await browser.newContext(KAMPALA)).newPage();
  await signInAs(expertPage, expert, '/account/addresses/availability-slots');
  await expertPage.getByLabel('Start Date').fill(`${date}T14:00`);
  await expertPage.getByLabel('End Date').fill(`${date}T15:00`);
  const oneOff = expertPage.locator('form').filter({ hasText: 'One-off slot' });
  await oneOff.getByText('Farm visit', { exact: true }).click();
  await oneOff.getByRole('button', { name: 'Submit' }).click();
  await expect(oneOff.getByText('Say where the farm visit happens')).toBeVisible();
  await oneOff.getByLabel('Place of the farm visit').fill('Bukedea, next to the health centre');
  await oneOff.getByRole('button', { name: 'Submit' }).click();
  await expectNotice(expertPage, 'Availability slot has been created');

  const farmerPage = await (await browser.newContext(KAMPALA)).newPage();
  await signInAs(farmerPage, farmer, '/account/addresses/slots');
  const card = await expertCard(farmerPage, expert.username);
  await expect(card).toContainText('Farm visit');
  // The place is shared only once a booking is approved.
  await expect(card).not.toContainText('Bukedea');
  await card.getByRole('button', { name: /^Book 14:00–15:00, Farm visit$/ }).click();
  await farmerPage.getByRole('dialog').getByLabel('Topic').fill('Bean leaves with brown rings');
  await farmerPage.getByRole('dialog').getByRole('button', { name: 'Book' }).click();
  await expectNotice(farmerPage, 'Slot booking submitted for approval');

  await expertPage.goto('/account/addresses/bookings');
  const booking = expertPage.getByRole('article', { name: farmer.username });
  await booking.getByRole('button', { name: 'Cancel Booking' }).click();
  const dialog = expertPage.getByRole('dialog');
  await dialog.getByLabel('Reason (optional)').fill('Away at a field day');
  await dialog.getByRole('button', { name: 'Reject booking' }).click();
  await expectNotice(expertPage, 'Booking rejected');
  await expect(booking).toContainText('Rejected');

  await farmerPage.goto('/account/addresses/my-bookings');
  const mine = farmerPage.getByRole('article', { name: expert.username });
  await expect(mine).toContainText('Reason: Away at a field day');
  await expect(mine.getByRole('button', { name: 'Add to calendar (.ics)' })).toHaveCount(0);
  await farmerPage.goto('/account/addresses/slots');
  await expect(
    (await expertCard(farmerPage, expert.username)).getByRole('button', { name: /^Book 14:00/ }),
  ).toBeVisible();

  await expertPage.goto('/account/addresses/availability-slots');
  await expertPage.getByRole('row').filter({ hasText: '14:00' }).getByRole('button', { name: 'Deactivate' }).click();
  await expectNotice(expertPage, 'Availability slot has been deactivated');
  await expect(expertPage.getByRole('row').filter({ hasText: '14:00' })).toContainText('Inactive');
});
