import { afterEach, describe, expect, it } from 'vitest';
import { act, render, screen, waitFor } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { Notifications, notifications } from '@mantine/notifications';
import i18n from './i18n.ts';
import swahili from './locales/sw.json';
import luganda from './locales/lg.json';
import { clearNoticesOnNavigation, notifyError, notifyInfo, notifySuccess } from './notify.ts';

function renderNotices() {
  render(
    <MantineProvider>
      <Notifications />
    </MantineProvider>,
  );
}

afterEach(() => {
  notifications.clean();
  notifications.cleanQueue();
});

describe('notices', () => {
  it('shows one at a time: a success replaces the error before it', async () => {
    renderNotices();
    act(() => notifyError('Could not save'));
    expect(await screen.findByText('Could not save')).toBeTruthy();
    act(() => notifySuccess('Saved'));
    expect(await screen.findByText('Saved')).toBeTruthy();
    await waitFor(() => expect(screen.queryByText('Could not save')).toBeNull());
    expect(screen.getByRole('button', { name: 'Close this message' })).toBeTruthy();
  });

  it('a route change clears an error, and a success unless it was raised just before the change', async () => {
    renderNotices();
    act(() => notifyError('Wrong code'));
    expect(await screen.findByText('Wrong code')).toBeTruthy();
    act(() => clearNoticesOnNavigation());
    await waitFor(() => expect(screen.queryByText('Wrong code')).toBeNull());

    act(() => notifySuccess('Account activated'));
    act(() => clearNoticesOnNavigation());
    expect(await screen.findByText('Account activated')).toBeTruthy();
    act(() => clearNoticesOnNavigation(Date.now() + 2_000));
    await waitFor(() => expect(screen.queryByText('Account activated')).toBeNull());
  });

  it("titles a notice in the reader's language, and gives news that is no success no title", async () => {
    i18n.addResourceBundle('sw', 'translation', swahili, true, true);
    i18n.addResourceBundle('lg', 'translation', luganda, true, true);
    renderNotices();
    try {
      await act(() => i18n.changeLanguage('sw'));
      act(() => notifySuccess('Imehifadhiwa'));
      expect(await screen.findByText('Imefanikiwa')).toBeTruthy();
      await act(() => i18n.changeLanguage('lg'));
      act(() => notifyError('Tekisobose'));
      expect(await screen.findByText('Waliwo ekitagenze bulungi')).toBeTruthy();
      act(() => notifyInfo('Ekifaananyi kikeberebbwa'));
      expect(await screen.findByText('Ekifaananyi kikeberebbwa')).toBeTruthy();
      // The notices before it go; it has no title.
      const titles = () => [...document.querySelectorAll('.mantine-Notification-title')].map((el) => el.textContent);
      await waitFor(() => expect(titles().filter(Boolean)).toEqual([]));
      expect(screen.getByText('Ekifaananyi kikeberebbwa')).toBeTruthy();
    } finally {
      await act(() => i18n.changeLanguage('en'));
    }
  });
});
