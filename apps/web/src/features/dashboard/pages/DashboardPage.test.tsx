import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import i18n from '../../../lib/i18n.ts';
import userEvent from '@testing-library/user-event';
import type { DashboardReply, NotificationItem, NotificationList } from '@kutu/contract';
import { renderWithProviders } from '../../../test/render.tsx';
import DashboardPage from './DashboardPage.tsx';
import { fakeNetwork, json } from '../../../test/fakeServer.ts';

const reply: DashboardReply = {
  role: 'farmer',
  stats: {
    imagesAnalyzedRust: 4,
    imagesAnalyzedHealthy: 3,
    imagesAnalyzedOtherDiseases: 2,
    totalImagesAnalyzed: 11,
    imagesTrainingRust: 1,
    imagesTrainingHealthy: 0,
    imagesTrainingOtherDiseases: 0,
    trainingSessions: 5,
    communityPostsRust: 6,
    bookingsConfirmed: 7,
  },
  outcomes: { common_rust: 4, healthy: 3, other_disease: 2, unclear: 2 },
  monthly: [
    { month: '2026-01', common_rust: 1, healthy: 0, other_disease: 0 },
    { month: '2026-02', common_rust: 3, healthy: 3, other_disease: 2 },
  ],
  time_zone: 'Africa/Kampala',
  farmer: {
    analyses: 11,
    questions_asked: 3,
    questions_answered: 2,
    posts: 6,
    posts_answered: 4,
    bookings_pending: 1,
    bookings_approved: 7,
  },
};

function notification(id: number, read: boolean, message: string): NotificationItem {
  return { id, type: 'booking_approved', message, date: '2026-02-10T07:00:00Z', read, data: {} };
}

/** The API at the fetch boundary: the dashboard, a notifications list, and mark-read. */
function stubApi(
  opts: { notifications?: NotificationItem[]; dashboard?: DashboardReply | 'error' | 'error once' } = {},
) {
  const items = opts.notifications ?? [];
  const calls: { method: string; url: string }[] = [];
  let dashboardCalls = 0;
  fakeNetwork(({ url, method }) => {
    calls.push({ method, url });
    if (url.startsWith('/api/dashboard/')) {
      dashboardCalls += 1;
      return opts.dashboard === 'error' || (opts.dashboard === 'error once' && dashboardCalls === 1)
        ? json({ error: { code: 'INTERNAL_ERROR', message: 'Something went wrong on our side.' } }, 500)
        : json(typeof opts.dashboard === 'object' ? opts.dashboard : reply);
    }
    const read = url.match(/^\/api\/notifications\/(\d+)\/read\/$/);
    if (read && method === 'PUT') {
      const item = items.find((n) => n.id === Number(read[1]))!;
      item.read = true;
      return json(item);
    }
    if (url.startsWith('/api/notifications/?')) {
      const list: NotificationList = {
        count: items.length,
        next: null,
        previous: null,
        results: items.map((n) => ({ ...n })),
        unread_count: items.filter((n) => !n.read).length,
      };
      return json(list);
    }
    if (url.startsWith('/api/auth/me/')) return json({ username: 'amina', role: 'farmer' });
    return json({ error: { code: 'NOT_FOUND', message: 'No route' } }, 404);
  });
  return calls;
}

describe('DashboardPage', () => {
  beforeEach(() => {
    localStorage.setItem('accessToken', 'token');
    localStorage.setItem('user', JSON.stringify({ username: 'amina', role: 'farmer' }));
  });
  afterEach(() => vi.unstubAllGlobals());

  it('shows a farmer their own analyses, answered questions, bookings and posts, no training statistics, and the farmer quick links', async () => {
    stubApi();
    renderWithProviders(<DashboardPage />, { route: '/account' });
    expect(screen.getByRole('heading', { name: 'Farmer Dashboard' })).toBeTruthy();
    const analyses = await screen.findByTestId('mine-analyses');
    await waitFor(() => expect(within(analyses).getByTestId('mine-value').textContent).toBe('11'));
    expect(analyses.getAttribute('href')).toBe('/account/addresses/analysis-history');
    const questions = screen.getByTestId('mine-questions');
    expect(questions.textContent).toContain('My questions answered');
    expect(within(questions).getByTestId('mine-value').textContent).toBe('2');
    expect(questions.textContent).toContain('of 3 asked');
    expect(within(screen.getByTestId('mine-bookings')).getByTestId('mine-value').textContent).toBe('7');
    expect(screen.getByTestId('mine-posts').textContent).toContain('4 answered by an expert');
    expect(screen.queryByTestId('stat-trainingSessions')).toBeNull();
    expect(screen.queryByText('Training Sessions')).toBeNull();

    expect(screen.getByRole('link', { name: 'Upload Image' }).getAttribute('href')).toBe(
      '/account/addresses/image-analysis',
    );
    expect(screen.getByRole('link', { name: 'Book Expert Slot' }).getAttribute('href')).toBe(
      '/account/addresses/slots',
    );
    expect(screen.getByRole('link', { name: 'Make a Post' }).getAttribute('href')).toBe(
      '/account/addresses/community-posts',
    );
    expect(screen.queryByRole('link', { name: 'Model Training' })).toBeNull();
    // The lower part (charts, notifications) loads after the page's code (decision 0114).
    expect(await screen.findByText('Image Analysis Outcomes')).toBeTruthy();
    expect(screen.getByText('Monthly Image Analysis')).toBeTruthy();
    expect(await screen.findByText('No notifications')).toBeTruthy();
  });

  // sw said "swali 1 linasubiri jibu" (a question waits for an answer) under the confirmed bookings.
  it.each([
    ['en', '1 waiting for the expert to confirm'],
    ['sw', 'miadi 1 inasubiri kuthibitishwa'],
    ['lg', '1 kirindiridde okukakasibwa'],
  ])('counts a pending booking as a booking, not a question (%s)', async (language, pending) => {
    stubApi();
    await act(() => i18n.changeLanguage(language));
    try {
      renderWithProviders(<DashboardPage />, { route: '/account' });
      const bookings = await screen.findByTestId('mine-bookings');
      await waitFor(() => expect(bookings.textContent).toContain(pending));
      expect(bookings.textContent).not.toMatch(/swali|question|ekibuuzo/i);
    } finally {
      await act(() => i18n.changeLanguage('en'));
    }
  });

  it('shows expert links and heading for an expert', async () => {
    localStorage.setItem('user', JSON.stringify({ username: 'otieno', role: 'expert' }));
    stubApi({ dashboard: { ...reply, role: 'expert' } });
    renderWithProviders(<DashboardPage />, { route: '/account' });
    expect(screen.getByRole('heading', { name: 'Expert Dashboard' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Create Slot' }).getAttribute('href')).toBe(
      '/account/addresses/availability-slots',
    );
    expect(screen.getByRole('link', { name: 'Bookings' }).getAttribute('href')).toBe('/account/addresses/bookings');
    expect(screen.queryByRole('link', { name: 'Upload Image' })).toBeNull();
    // Experts keep the ten statistics, training ones included.
    expect(await screen.findByTestId('stat-trainingSessions')).toBeTruthy();
    await waitFor(() => expect(screen.getAllByTestId('stat-value')).toHaveLength(10));
  });

  it('draws the outcomes and the monthly bars from the figures, with the numbers readable without hovering', async () => {
    stubApi({ dashboard: reply });
    renderWithProviders(<DashboardPage />, { route: '/account' });
    const outcomes = await screen.findByRole('img', { name: 'Image Analysis Outcomes' });
    expect(screen.getByText('Rust: 4')).toBeTruthy();
    expect(screen.getByText('Not a leaf / unsure: 2')).toBeTruthy();
    expect(outcomes.querySelectorAll('path')).toHaveLength(4);
    expect(outcomes.querySelector('[data-testid="slice-common_rust"] title')?.textContent).toBe('Rust: 4 (36 %)');

    const monthly = screen.getByRole('img', { name: 'Monthly Image Analysis' });
    const bar = (month: string, k: string) => monthly.querySelector(`[data-testid="bar-${month}-${k}"]`)!;
    expect(bar('2026-02', 'healthy').querySelector('title')?.textContent).toBe('Feb 2026, Healthy: 3');
    // Heights follow the counts: 3 is three times 1, an empty month has no height.
    const h = (month: string, k: string) => Number(bar(month, k).getAttribute('height'));
    expect(h('2026-02', 'common_rust')).toBeCloseTo(3 * h('2026-01', 'common_rust'));
    expect(h('2026-01', 'healthy')).toBe(0);
  });

  it('shows no charts until there is something to chart', async () => {
    stubApi({
      dashboard: {
        ...reply,
        outcomes: { common_rust: 0, healthy: 0, other_disease: 0, unclear: 0 },
        monthly: reply.monthly.map((m) => ({ ...m, common_rust: 0, healthy: 0, other_disease: 0 })),
      },
    });
    renderWithProviders(<DashboardPage />, { route: '/account' });
    const analyses = await screen.findByTestId('mine-analyses');
    await waitFor(() => expect(within(analyses).getByTestId('mine-value')).toBeTruthy());
    expect(screen.queryByText('Image Analysis Outcomes')).toBeNull();
    expect(screen.queryByText('Monthly Image Analysis')).toBeNull();
  });

  it('shows an error with a retry when the statistics cannot be loaded, once for the figures and the charts', async () => {
    const calls = stubApi({ dashboard: 'error once' });
    renderWithProviders(<DashboardPage />, { route: '/account' });
    expect(await screen.findByText('The dashboard could not be loaded')).toBeTruthy();
    expect(screen.getByText('Something went wrong on our side.')).toBeTruthy();
    expect(screen.queryByTestId('mine-analyses')).toBeNull();
    expect(screen.queryByText('Image Analysis Outcomes')).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    const analyses = await screen.findByTestId('mine-analyses');
    await waitFor(() => expect(within(analyses).getByTestId('mine-value').textContent).toBe('11'));
    expect(screen.queryByText('The dashboard could not be loaded')).toBeNull();
    expect(screen.getByRole('img', { name: 'Image Analysis Outcomes' })).toBeTruthy();
    expect(calls.filter((c) => c.url.startsWith('/api/dashboard/'))).toHaveLength(2);
  });

  it('lists notifications with the unread count and marks one read on the server', async () => {
    const calls = stubApi({
      notifications: [notification(2, false, 'Your booking was approved'), notification(1, true, 'Older news')],
    });
    renderWithProviders(<DashboardPage />, { route: '/account' });
    const card = await screen.findByTestId('notifications-card');
    await within(card).findByText('Your booking was approved');
    expect(within(card).getByTestId('unread-count').textContent).toBe('1 unread');
    const [unread, read] = within(card).getAllByTestId('notification');
    expect(unread.dataset.read).toBe('false');
    expect(read.dataset.read).toBe('true');
    expect(within(read).queryByRole('button', { name: 'Mark as Read' })).toBeNull();

    await userEvent.click(within(unread).getByRole('button', { name: 'Mark as Read' }));
    expect(await screen.findByText('Notification marked as read')).toBeTruthy();
    expect(calls).toContainEqual({ method: 'PUT', url: '/api/notifications/2/read/' });
    await waitFor(() => expect(within(card).getAllByTestId('notification')[0].dataset.read).toBe('true'));
    expect(within(card).getByTestId('unread-count').textContent).toBe('0 unread');
  });
});
