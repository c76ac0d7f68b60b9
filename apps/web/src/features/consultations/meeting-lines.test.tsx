import { afterEach, describe, expect, it } from 'vitest';
import { act, screen } from '@testing-library/react';
import type { Booking } from '@kutu/contract';
import i18n from '../../lib/i18n.ts';
import swahili from '../../lib/locales/sw.json';
import { renderWithProviders } from '../../test/render.tsx';
import { MeetingLines } from './components/shared.tsx';

const booking = (analysis: Booking['analysis']): Booking => ({
  id: 1,
  status: 'pending',
  selected_date: null,
  reason: null,
  created_at: '2026-11-25T08:00:00.000Z',
  decided_at: null,
  topic: 'Rust on my beans',
  analysis,
  mode: 'phone',
  place: null,
  video_url: null,
  farmer: { username: 'amina', email: null, phone: null },
  expert: { username: 'okello', phone: null },
  slot: { id: 3, start_time: '2026-11-27T08:00:00.000Z', end_time: '2026-11-27T08:30:00.000Z' },
  cancelled_by: null,
  cancelled_at: null,
});

describe("a booking's attached photo, as Kutu read it", () => {
  afterEach(() => act(() => i18n.changeLanguage('en')));

  it('names rust for the crop with a whole percent, in the language on screen', async () => {
    const beans = booking({ id: 9, rust_class: 'common_rust', confidence: 0.871, crop: 'beans' });
    const { unmount } = renderWithProviders(<MeetingLines booking={beans} viewer="expert" />);
    expect(screen.getByText(/Bean rust \(Uromyces appendiculatus\) \(87\s?%\)/)).toBeTruthy();
    unmount();
    i18n.addResourceBundle('sw', 'translation', swahili, true, true);
    await act(() => i18n.changeLanguage('sw'));
    renderWithProviders(<MeetingLines booking={beans} viewer="expert" />);
    expect(screen.getByText(/Kutu ya maharagwe/i)).toBeTruthy();
    expect(screen.queryByText(/sure/)).toBeNull();
  });

  it('says when Kutu found no leaf, with no percent', () => {
    renderWithProviders(
      <MeetingLines booking={booking({ id: 9, rust_class: null, confidence: 0.99, crop: null })} viewer="farmer" />,
    );
    expect(screen.getByText('No leaf found')).toBeTruthy();
    expect(screen.queryByText(/99/)).toBeNull();
  });
});
