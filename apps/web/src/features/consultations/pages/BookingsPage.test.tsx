import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Booking, BookingPage } from '@kutu/contract';
import { renderWithProviders } from '../../../test/render.tsx';
import { formatDateTime, formatTime } from '../../../lib/format.ts';
import BookingsPage from './BookingsPage.tsx';
import { fakeNetwork, json } from '../../../test/fakeServer.ts';

const pending: Booking = {
  id: 7,
  status: 'pending',
  selected_date: null,
  reason: null,
  created_at: '2027-03-01T06:00:00.000Z',
  decided_at: null,
  topic: 'Rust on my maize',
  analysis: null,
  mode: 'phone',
  place: null,
  video_url: null,
  farmer: { username: 'akello', email: 'akello@example.com', phone: null },
  expert: { username: 'dr_nambi', phone: null },
  slot: { id: 3, start_time: '2027-03-02T06:00:00.000Z', end_time: '2027-03-02T08:00:00.000Z' },
  cancelled_by: null,
  cancelled_at: null,
};

/** The API at the fetch boundary: the bookings list, and the manage call recorded with its body. */
function stubApi(list: Booking[], manageReply: { status: number; body: unknown }) {
  const sent: unknown[] = [];
  fakeNetwork(({ url, method, body }) => {
    if (!url.startsWith('/api/consultations/consultations/manage/')) return json({}, 404);
    if (method === 'PUT') {
      sent.push(body);
      return json(manageReply.body, manageReply.status);
    }
    const page: BookingPage = { count: list.length, next: null, previous: null, results: list };
    return json(page);
  });
  return sent;
}

afterEach(() => vi.unstubAllGlobals());

describe('BookingsPage', () => {
  it('shows the booking and approves it (not rejects) at the time its slot fixes, asking no date', async () => {
    const sent = stubApi([pending], { status: 200, body: { ...pending, status: 'approved' } });
    renderWithProviders(<BookingsPage />);
    const card = await screen.findByRole('article', { name: 'akello' });
    expect(card.textContent).toContain('akello@example.com');
    expect(card.textContent).toContain('Selected: Not set');
    expect(card.textContent).toContain('Pending');

    await userEvent.click(within(card).getByRole('button', { name: 'Approve Booking' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).queryByRole('textbox')).toBeNull();
    expect(dialog.querySelector('input')).toBeNull();
    expect(within(dialog).getByTestId('approve-time').textContent).toBe(
      `The slot fixes the time: you meet akello on ${formatDateTime(pending.slot.start_time)} (until ${formatTime(pending.slot.end_time)}).`,
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Approve this time' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toEqual({ booking_id: 7, action: 'approve' });
    expect(await screen.findByText('Booking approved')).toBeTruthy();
  });

  it('shows the server’s field error in the dialog', async () => {
    const message = 'The scheduled time must be in the future';
    stubApi([pending], {
      status: 400,
      body: { error: { code: 'VALIDATION_ERROR', message, fields: { selected_date: message } } },
    });
    renderWithProviders(<BookingsPage />);
    const card = await screen.findByRole('article', { name: 'akello' });
    await userEvent.click(within(card).getByRole('button', { name: 'Approve Booking' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Approve this time' }));
    expect((await within(dialog).findAllByText(message)).length).toBeGreaterThan(0);
  });

  it('says when there are no bookings', async () => {
    stubApi([], { status: 200, body: {} });
    renderWithProviders(<BookingsPage />);
    expect(await screen.findByText('No bookings available.')).toBeTruthy();
  });
});
