import { afterEach, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { NotificationList } from '@kutu/contract';
import { renderWithProviders } from '../../../test/render.tsx';
import { NotificationsBell } from './NotificationsBell.tsx';
import { fakeNetwork, json } from '../../../test/fakeServer.ts';

afterEach(() => vi.unstubAllGlobals());

it('opens the list on the first click (its popover loads then) and toggles it after', async () => {
  const list: NotificationList = {
    count: 1,
    next: null,
    previous: null,
    results: [
      {
        id: 1,
        type: 'booking_approved',
        message: 'Your booking is approved',
        date: '2026-02-10T07:00:00Z',
        read: false,
        data: {},
      },
    ],
    unread_count: 1,
  };
  fakeNetwork(() => json(list));
  localStorage.setItem('accessToken', 'token');
  renderWithProviders(<NotificationsBell />);
  const bell = await screen.findByRole('button', { name: 'Notifications: 1 unread' });
  await userEvent.click(bell);
  expect(await screen.findByText('Your booking is approved')).toBeTruthy();
  const opened = screen.getByRole('button', { name: 'Notifications: 1 unread' });
  expect(opened.getAttribute('aria-expanded')).toBe('true');
  expect(document.activeElement).toBe(opened);
  await userEvent.click(opened);
  await vi.waitFor(() => expect(opened.getAttribute('aria-expanded')).toBe('false'));
});
