import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../lib/i18n.ts';
import luganda from '../../lib/locales/lg.json';
import swahili from '../../lib/locales/sw.json';
import { renderWithProviders } from '../../test/render.tsx';
import { ListenButton } from './ListenButton.tsx';

/**
 * The voice itself (an AudioContext, the synthetic voice's WebAssembly) does not run in jsdom: its
 * `listen` plays what a Luganda reading does. A recording sounds first, then the voice for the part with
 * no recording downloads while it plays, to 100 %.
 */
const player = vi.hoisted(() => ({
  opts: null as null | { onDownload(f: number): void; onSound(): void },
  end: () => {},
}));
vi.mock('../../lib/voice/listen.ts', () => ({
  listen: async (_parts: unknown, _ctx: unknown, opts: { onDownload(f: number): void; onSound(): void }) => {
    player.opts = opts;
    return { stop() {}, done: new Promise<void>((resolve) => (player.end = resolve)) };
  },
}));

afterEach(async () => {
  vi.unstubAllGlobals();
  await act(() => i18n.changeLanguage('en'));
});

describe('ListenButton', () => {
  it.each(['en', 'sw', 'lg'] as const)('shows the download only until the sound starts, in %s', async (language) => {
    vi.stubGlobal(
      'AudioContext',
      class {
        close = () => Promise.resolve();
      },
    );
    i18n.addResourceBundle('sw', 'translation', swahili, true, true);
    i18n.addResourceBundle('lg', 'translation', luganda, true, true);
    await act(() => i18n.changeLanguage(language));
    const user = userEvent.setup({ delay: null });
    renderWithProviders(<ListenButton parts={[{ text: 'Rust on the leaf.' }]} />);
    await user.click(screen.getByRole('button', { name: i18n.t('listen.listen') }));
    await vi.waitFor(() => expect(player.opts).not.toBeNull());
    const progress = () => screen.queryByText(new RegExp(`${i18n.t('listen.loading', { percent: 99 }).split(':')[0]}`));

    act(() => player.opts!.onDownload(0.4));
    expect(progress()?.textContent).toMatch(/40\s?%/);
    act(() => player.opts!.onSound());
    await screen.findByRole('button', { name: i18n.t('listen.stop') });
    // The voice for the rest downloads while the first part plays: nothing about it is said any more.
    act(() => player.opts!.onDownload(0.7));
    act(() => player.opts!.onDownload(1));
    expect(progress()).toBeNull();
    expect(screen.queryByText(/100\s?%/)).toBeNull();
    await act(async () => player.end());
  });
});
