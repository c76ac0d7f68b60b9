import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import type { AvailabilitySlot } from '@kutu/contract';
import { renderWithProviders } from '../../test/render.tsx';
import { fakeServer } from '../../test/fakeServer.ts';
import { analysisResult } from '../../test/analysis-result.ts';
import { BookDialog } from './components/BookDialog.tsx';

const slot: AvailabilitySlot = {
  id: 4,
  start_time: '2026-12-01T07:00:00.000Z',
  end_time: '2026-12-01T07:30:00.000Z',
  is_active: true,
  is_booked: false,
  mode: 'phone',
  place: null,
  video_url: null,
  rule_id: null,
  expert: { bio: '', areas_of_expertise: '', certifications: '', user: { username: 'agronomist' } },
};

describe('the booking dialog', () => {
  // It offered the farmer's maize photo as "Rust (any crop)", where its result said common rust.
  it("names each photo's result as the result did: the rust of its crop, or no leaf", async () => {
    const photos = [
      analysisResult({ id: 1, crop: 'maize' }),
      analysisResult({ id: 2, crop: 'beans' }),
      analysisResult({ id: 3, outcome: 'not_leaf', rust_class: null }),
    ];
    fakeServer(() => ({ status: 200, body: { results: photos, total: 3, page: 1, page_size: 20 } }));
    renderWithProviders(<BookDialog slot={slot} onClose={() => {}} />);
    const select = await screen.findByLabelText(/attach/i);
    await within(select).findByText(/Puccinia sorghi/);
    const labels = [...(select as HTMLSelectElement).options].map((o) => o.textContent ?? '');
    expect(labels[1]).toMatch(/ — Common rust \(Puccinia sorghi\)$/);
    expect(labels[2]).toMatch(/ — Bean rust \(Uromyces appendiculatus\)$/);
    expect(labels[3]).toMatch(/ — No leaf found$/);
    expect(labels.join('|')).not.toContain('any crop');
  });
});
