import fs from 'node:fs';
import path from 'node:path';
import { type APIRequestContext, expect, test } from '@playwright/test';
import { createActiveUser, type E2EUser, signInAs } from './support.ts';

/** A real leaf photo from the dataset shipped in the repository. */
const leafDir = path.resolve(import.meta.dirname, '../datasets/rust3/common_rust');

async function bearer(request: APIRequestContext, user: E2EUser) {
  const res = await request.post('/api/auth/login/', { data: { email: user.email, password: user.password } });
  expect(res.ok(), await res.text()).toBeTruthy();
  return { authorization: `Bearer ${(await res.json()).access}` };
}

/** An expert's slot tomorrow (+days), booked by the farmer; returns the booking id and a time inside the slot. */
async function bookedSlot(
  request: APIRequestContext,
  expert: Record<string, string>,
  farmer: Record<string, string>,
  days: number,
) {
  const start = new Date(Date.now() + days * 24 * 3600_000);
  start.setUTCHours(6, 0, 0, 0); // 09:00 in Kampala
  const end = new Date(start.getTime() + 3600_000);
  const slot = await request.post('/api/consultations/availability-slots/', {
    headers: expert,
    data: { start_time: start.toISOString(), end_time: end.toISOString() },
  });
  expect(slot.status(), await slot.text()).toBe(201);
  const booking = await request.post('/api/consultations/consultations/', {
    headers: farmer,
    data: { slot_id: (await slot.json()).id, topic: 'Rust spots on my maize' },
  });
  expect(booking.status(), await booking.text()).toBe(201);
  return { bookingId: (await booking.json()).id as number, at: new Date(start.getTime() + 15 * 60_000) };
}

async function approve(request: APIRequestContext, expert: Record<string, string>, b: { bookingId: number; at: Date }) {
  const res = await request.put('/api/consultations/consultations/manage/', {
    headers: expert,
    data: { booking_id: b.bookingId, action: 'approve', selected_date: b.at.toISOString() },
  });
  expect(res.ok(), await res.text()).toBeTruthy();
}

const statValue = (page: import('@playwright/test').Page, key: string) =>
  page.getByTestId(`stat-${key}`).getByTestId('stat-value');
/** The farmer's own activity cards (the ten statistics are the expert's). */
const mineValue = (page: import('@playwright/test').Page, key: string) =>
  page.getByTestId(`mine-${key}`).getByTestId('mine-value');

test('the farmer dashboard counts real bookings and analyses, and notifications stay read', async ({
  page,
  request,
}) => {
  const expertUser = await createActiveUser(request, 'expert');
  const farmerUser = await createActiveUser(request, 'farmer');
  const expert = await bearer(request, expertUser);
  const farmer = await bearer(request, farmerUser);

  await approve(request, expert, await bookedSlot(request, expert, farmer, 1));

  const leaf = fs.readdirSync(leafDir).find((f) => f.endsWith('.jpg'))!;
  const analysis = await request.post('/api/rust-detection/', {
    headers: farmer,
    multipart: {
      image: { name: leaf, mimeType: 'image/jpeg', buffer: fs.readFileSync(path.join(leafDir, leaf)) },
    },
  });
  expect(analysis.ok(), await analysis.text()).toBeTruthy();

  await signInAs(page, farmerUser, '/account');
  await expect(page.getByRole('heading', { name: 'Farmer Dashboard' })).toBeVisible();
  await expect(mineValue(page, 'bookings')).toHaveText('1');
  await expect(mineValue(page, 'analyses')).toHaveText('1');
  await expect(page.getByRole('link', { name: 'Upload Image' })).toHaveAttribute(
    'href',
    '/account/addresses/image-analysis',
  );

  const card = page.getByTestId('notifications-card');
  const bookingNotice = card.getByTestId('notification').filter({ hasText: 'approved your booking' });
  await expect(bookingNotice).toHaveAttribute('data-read', 'false');
  await expect(card.getByTestId('notification')).toHaveCount(2); // the approval and the analysis
  await expect(card.getByTestId('unread-count')).toHaveText('2 unread');
  await expect(page.getByRole('button', { name: 'Notifications: 2 unread' })).toBeVisible();

  await bookingNotice.getByRole('button', { name: 'Mark as Read' }).click();
  await expect(page.getByText('Notification marked as read')).toBeVisible();
  await expect(bookingNotice).toHaveAttribute('data-read', 'true');
  await expect(card.getByTestId('unread-count')).toHaveText('1 unread');

  await page.reload();
  await expect(bookingNotice).toHaveAttribute('data-read', 'true');
  await expect(card.getByTestId('unread-count')).toHaveText('1 unread');
  await expect(page.getByRole('button', { name: 'Notifications: 1 unread' })).toBeVisible();

  // A new approval reaches the open page through the event stream, well before the 30 s poll.
  const second = await bookedSlot(request, expert, farmer, 2);
  await approve(request, expert, second);
  await expect(card.getByTestId('notification')).toHaveCount(3, { timeout: 10_000 });
  await expect(mineValue(page, 'bookings')).toHaveText('2', { timeout: 10_000 });
  await expect(card.getByTestId('unread-count')).toHaveText('2 unread');

  await card.getByRole('button', { name: 'Mark all as read' }).click();
  await expect(card.getByTestId('unread-count')).toHaveText('0 unread');
  await page.reload();
  await expect(card.getByTestId('notification').first()).toHaveAttribute('data-read', 'true');
  await expect(card.getByTestId('unread-count')).toHaveText('0 unread');
});

test('the expert dashboard shows the expert heading and links', async ({ page, request }) => {
  const expertUser = await createActiveUser(request, 'expert');
  await signInAs(page, expertUser, '/account');
  await expect(page.getByRole('heading', { name: 'Expert Dashboard' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Create Slot' })).toHaveAttribute(
    'href',
    '/account/addresses/availability-slots',
  );
  await expect(statValue(page, 'bookingsConfirmed')).toHaveText('0');
  // The only notification a newly approved expert has is the approval itself (docs/decisions/0027).
  const notifications = page.getByTestId('notifications-card').getByTestId('notification');
  await expect(notifications).toHaveCount(1);
  await expect(notifications.first()).toContainText('An administrator approved your expert account');
});
