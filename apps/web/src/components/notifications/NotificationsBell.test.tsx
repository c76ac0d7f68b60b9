import { afterEach, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import { useQuery } from '@tanstack/react-query';
import userEvent from '@testing-library/user-event';
import type { NotificationList } from '@kutu/contract';
import { renderWithProviders } from '../../test/render.tsx';
import { NotificationsBell } from './NotificationsBell.tsx';
import { NotificationsHeader } from './NotificationsHeader.tsx';
import { POLL_MS } from '../../api/notifications.ts';
import { fakeNetwork, json, type Sent } from '../../test/fakeServer.ts';

// The page settles (lib/when-settled.ts) when a test says so: the live stream waits for it.
const page = vi.hoisted(() => {
  let settle = () => {};
  const settled = new Promise<void>((resolve) => (settle = resolve));
  return { settled, settle: () => settle() };
});
vi.mock('../../lib/when-settled.ts', () => ({ whenSettled: () => page.settled }));

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

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

/** The list requests among those the page sent. */
const listRequests = (sent: Sent[]) => sent.filter((s) => s.url.includes('/api/notifications/?')).length;

/** A signed-in page whose server has no notifications, on fake timers: the count of its list requests. */
function emptyListOnFakeTimers() {
  const empty: NotificationList = { count: 0, next: null, previous: null, results: [], unread_count: 0 };
  const sent = fakeNetwork(() => json(empty));
  localStorage.setItem('accessToken', 'token');
  vi.useFakeTimers({ shouldAdvanceTime: true });
  return () => listRequests(sent);
}

it('polls the list every 30 s while the live stream is not connected', async () => {
  const lists = emptyListOnFakeTimers();
  // jsdom has no EventSource, so the stream never connects: what a phone whose stream failed sees.
  renderWithProviders(
    <>
      <NotificationsBell />
      <NotificationsHeader size="xs" />
    </>,
  );
  await vi.waitFor(() => expect(lists()).toBe(1));
  await vi.advanceTimersByTimeAsync(POLL_MS - 1_000);
  expect(lists()).toBe(1);
  await vi.advanceTimersByTimeAsync(2_000);
  expect(lists()).toBe(2);
  await vi.advanceTimersByTimeAsync(POLL_MS);
  expect(lists()).toBe(3);
});

it('the notifications header alone does not poll: the bell, on every account screen, does', async () => {
  const lists = emptyListOnFakeTimers();
  renderWithProviders(<NotificationsHeader size="xs" />);
  await vi.waitFor(() => expect(lists()).toBe(1));
  await vi.advanceTimersByTimeAsync(3 * POLL_MS);
  expect(lists()).toBe(1);
});

/** The browser's EventSource, driven by the test: what the server's stream would send. */
class FakeEventSource {
  static opened: FakeEventSource[] = [];
  private listeners = new Map<string, ((event: MessageEvent) => void)[]>();
  onerror: (() => void) | null = null;
  constructor(url: string) {
    expect(url).toContain('token=one-time');
    FakeEventSource.opened.push(this);
  }
  addEventListener(name: string, listener: (event: MessageEvent) => void) {
    this.listeners.set(name, [...(this.listeners.get(name) ?? []), listener]);
  }
  send(name: string, data: unknown) {
    for (const l of this.listeners.get(name) ?? []) l(new MessageEvent(name, { data: JSON.stringify(data) }));
  }
  close() {}
}

it('opens the stream once the page has settled, and fetches the list again then only if something changed', async () => {
  const item = (id: number) => ({
    id,
    type: 'booking_approved' as const,
    message: `Note ${id}`,
    date: '2026-02-10T07:00:00Z',
    read: false,
    data: {},
  });
  let list: NotificationList = { count: 1, next: null, previous: null, results: [item(4)], unread_count: 1 };
  const sent = fakeNetwork(({ url }) =>
    url.includes('stream-token') ? json({ token: 'one-time', expires_in: 60 }) : json(list),
  );
  FakeEventSource.opened = [];
  vi.stubGlobal('EventSource', FakeEventSource);
  localStorage.setItem('accessToken', 'token');
  let dashboardFetches = 0;
  // A dashboard figure that a notification can change (a booking's approval).
  function DashboardFigure() {
    useQuery({ queryKey: ['dashboard', 'figure'], queryFn: () => ++dashboardFetches });
    return null;
  }
  renderWithProviders(
    <>
      <NotificationsBell />
      <DashboardFigure />
    </>,
  );
  const lists = () => listRequests(sent);
  await screen.findByRole('button', { name: 'Notifications: 1 unread' });
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(sent.filter((s) => s.url.includes('stream-token'))).toHaveLength(0);
  expect(FakeEventSource.opened).toHaveLength(0);

  page.settle();
  await vi.waitFor(() => expect(FakeEventSource.opened).toHaveLength(1));
  const stream = FakeEventSource.opened[0]!;

  stream.send('ready', { unread_count: 1, latest_id: 4 });
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(lists()).toBe(1);
  expect(dashboardFetches).toBe(1);

  // A reconnect after a notification arrived while the stream was down: the newest id differs, and the
  // dashboard's figures are fetched again as a notification event would have them.
  list = { ...list, count: 2, results: [item(5), item(4)], unread_count: 2 };
  stream.send('ready', { unread_count: 2, latest_id: 5 });
  await screen.findByRole('button', { name: 'Notifications: 2 unread' });
  expect(lists()).toBe(2);
  await vi.waitFor(() => expect(dashboardFetches).toBe(2));
});
