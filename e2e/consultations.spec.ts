import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { createActiveUser, signInAs } from './support.ts';

/** A date some days ahead, as YYYY-MM-DD in East Africa Time (the browser's zone in these tests). */
function eatDate(daysAhead: number): string {
  const d = new Date(Date.now() + daysAhead * 86_400_000 + 3 * 3_600_000);
  return d.toISOString().slice(0, 10);
}

async function expectNotice(page: Page, text: string) {
  await expect(page.getByText(text, { exact: true }).first()).toBeVisible();
}

test('an expert publishes a slot, a farmer books it, the expert approves, the farmer gets a calendar file', async ({
  browser,
  request,
}) => {
  const expert = await createActiveUser(request, 'expert');
  const farmer = await createActiveUser(request, 'farmer');
  const day = eatDate(3);

  // The expert publishes 09:00–11:00 East Africa Time.
  const expertPage = await (await browser.newContext({ timezoneId: 'Africa/Kampala' })).newPage();
  await signInAs(expertPage, expert, '/account/addresses/availability-slots');
  await expect(expertPage.getByRole('heading', { name: 'Create Slot' })).toBeVisible();
  await expect(expertPage.getByText('You have not published any availability slots yet.')).toBeVisible();
  await expertPage.getByRole('button', { name: 'Submit' }).click();
  await expect(expertPage.getByText('Start time is required').first()).toBeVisible();
  await expertPage.getByLabel('Start Date').fill(`${day}T09:00`);
  await expertPage.getByLabel('End Date').fill(`${day}T11:00`);
  await expertPage.getByRole('button', { name: 'Submit' }).click();
  await expectNotice(expertPage, 'Availability slot has been created');
  const slotRow = expertPage.getByRole('row').filter({ hasText: '09:00' });
  await expect(slotRow).toContainText('Active');
  await expect(slotRow).toContainText('Not Booked');
  await expect(expertPage.getByText('1–1 of 1')).toBeVisible();

  // The farmer books it.
  const farmerPage = await (await browser.newContext({ timezoneId: 'Africa/Kampala' })).newPage();
  await signInAs(farmerPage, farmer, '/account/addresses/slots');
  const card = farmerPage.getByRole('article', { name: expert.username });
  await expect(card).toContainText('Extension officer in Mbale');
  await expect(card).toContainText('Available');
  await card.getByRole('button', { name: 'Book Slot' }).click();
  await expectNotice(farmerPage, 'Slot booking submitted for approval');
  await expect(card).toHaveCount(0);

  // The expert sees the slot booked, and approves the booking for 10:30.
  await expertPage.reload();
  await expect(expertPage.getByRole('row').filter({ hasText: '09:00' })).toContainText('Booked');
  await expertPage.goto('/account/addresses/bookings');
  const booking = expertPage.getByRole('article', { name: farmer.username });
  await expect(booking).toContainText('Pending');
  await expect(booking).toContainText(farmer.email);
  await expect(booking).toContainText('Selected: Not set');
  await booking.getByRole('button', { name: 'Approve Booking' }).click();
  const dialog = expertPage.getByRole('dialog');
  await dialog.getByLabel('Scheduled Date and Time').fill(`${day}T10:30`);
  await dialog.getByRole('button', { name: 'Schedule' }).click();
  await expectNotice(expertPage, 'Booking approved');
  await expect(booking).toContainText('Approved');
  await expect(booking).toContainText(/Selected: .*10:30/);
  await expect(booking.getByRole('button', { name: 'Approve Booking' })).toHaveCount(0);

  // The farmer sees the approval and downloads the calendar event.
  await farmerPage.goto('/account/addresses/my-bookings');
  const mine = farmerPage.getByRole('article', { name: expert.username });
  await expect(mine).toContainText('Approved');
  await expect(mine).toContainText(/Scheduled: .*10:30/);
  const [download] = await Promise.all([
    farmerPage.waitForEvent('download'),
    mine.getByRole('button', { name: 'Add to calendar (.ics)' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^kutu-consultation-\d+\.ics$/);
  const ics = fs.readFileSync(await download.path(), 'utf8');
  expect(ics).toContain('BEGIN:VEVENT');
  // 10:30 East Africa Time is 07:30 UTC.
  expect(ics).toContain(`DTSTART:${day.replaceAll('-', '')}T073000Z`);
  expect(ics).toContain(`SUMMARY:Kutu consultation with expert ${expert.username}`);
});

test('an expert cancels a booking with a reason and the slot opens again', async ({ browser, request }) => {
  const expert = await createActiveUser(request, 'expert');
  const farmer = await createActiveUser(request, 'farmer');
  const day = eatDate(4);

  const expertPage = await (await browser.newContext({ timezoneId: 'Africa/Kampala' })).newPage();
  await signInAs(expertPage, expert, '/account/addresses/availability-slots');
  await expertPage.getByLabel('Start Date').fill(`${day}T14:00`);
  await expertPage.getByLabel('End Date').fill(`${day}T15:00`);
  await expertPage.getByRole('button', { name: 'Submit' }).click();
  await expectNotice(expertPage, 'Availability slot has been created');

  const farmerPage = await (await browser.newContext({ timezoneId: 'Africa/Kampala' })).newPage();
  await signInAs(farmerPage, farmer, '/account/addresses/slots');
  await farmerPage.getByRole('article', { name: expert.username }).getByRole('button', { name: 'Book Slot' }).click();
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
  await expect(mine).toContainText('Rejected');
  await expect(mine).toContainText('Reason: Away at a field day');
  await expect(mine.getByRole('button', { name: 'Add to calendar (.ics)' })).toHaveCount(0);
  await farmerPage.goto('/account/addresses/slots');
  await expect(farmerPage.getByRole('article', { name: expert.username })).toContainText('Available');

  // The slot is free again, so the expert may now deactivate it.
  await expertPage.goto('/account/addresses/availability-slots');
  await expertPage.getByRole('row').filter({ hasText: '14:00' }).getByRole('button', { name: 'Deactivate' }).click();
  await expectNotice(expertPage, 'Availability slot has been deactivated');
  await expect(expertPage.getByRole('row').filter({ hasText: '14:00' })).toContainText('Inactive');
});
