import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { notifications } from '@mantine/notifications';
import type { AnalysisResult } from '@kutu/contract';
import { renderWithProviders } from '../../test/render.tsx';
import { analysisResult } from '../../test/analysis-result.ts';
import { fakeNetwork, json, type Sent } from '../../test/fakeServer.ts';
import { ResultWithReview } from './components/ResultWithReview.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  notifications.clean();
  notifications.cleanQueue();
});

/** Unsure between rust and another disease on its first photo, with room for two more. */
const unsure = analysisResult({
  id: 42,
  confidence: 0.45,
  unsure: true,
  probabilities: { common_rust: 0.45, healthy: 0.15, other_disease: 0.4 },
  second_photo: { reason: 'unsure', runner_up: 'other_disease', photos_left: 2 },
});

/** The server's field answer after a second, clearly rusty leaf. */
const field: AnalysisResult = {
  ...unsure,
  confidence: 0.7,
  unsure: false,
  probabilities: { common_rust: 0.7, healthy: 0.1, other_disease: 0.2 },
  photos: [
    ...unsure.photos,
    { position: 1, url: '/api/rust-detection/42/photos/1/', rust_class: 'common_rust', confidence: 0.95 },
  ],
  second_photo: { reason: null, runner_up: null, photos_left: 0 },
};

function network(addReply: () => Response) {
  vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:photo', revokeObjectURL: () => {} }));
  return fakeNetwork((s: Sent) => {
    if (s.method === 'POST' && s.url === '/api/rust-detection/42/photos/') return addReply();
    if (s.url.includes('/image/') || s.url.includes('/photos/')) return new Response(new Blob([new Uint8Array(4)]));
    if (s.url.endsWith('/seen/')) return json({ updated: 0 });
    return json({ error: { code: 'NOT_FOUND', message: 'Not found' } }, 404);
  });
}

const picker = () => screen.getByTestId('more-photos-picker').querySelector('input[type=file]') as HTMLInputElement;
const leaf = () => new File([new Uint8Array(2048)], 'leaf2.jpg', { type: 'image/jpeg' });

describe('a second photo when unsure (decision 0040)', () => {
  it('says in plain words why it asks, and sends another leaf to the analysis: the answer becomes the field’s', async () => {
    const sent = network(() => json(field));
    const user = userEvent.setup({ delay: null });
    renderWithProviders(<ResultWithReview result={unsure} />);

    expect(screen.getByTestId('more-photos-why').textContent).toBe(
      'We are not sure: it could be rust or another disease. One or two more photos of other leaves from the same field will help.',
    );
    expect(screen.getByText('You can add 2 more photos.')).toBeTruthy();

    await user.upload(picker(), leaf());
    await waitFor(() => expect(screen.queryByTestId('more-photos')).toBeNull());
    const post = sent.find((s) => s.method === 'POST' && s.url === '/api/rust-detection/42/photos/');
    expect((post?.form?.get('image') as File | undefined)?.name).toBe('leaf2.jpg');
    expect(screen.getByTestId('field-photos').textContent).toContain('Answer for your field from 2 photos');
    await waitFor(() => expect(screen.getAllByAltText(/Leaf photo \d from the same field/)).toHaveLength(2));
    expect(screen.getByTestId('result-confidence').textContent).toBe('70%');
  });

  it('names the close call, keeps the answer and says why when the server refuses the photo', async () => {
    const close: AnalysisResult = {
      ...unsure,
      unsure: false,
      confidence: 0.66,
      probabilities: { common_rust: 0.66, healthy: 0.03, other_disease: 0.31 },
      second_photo: { reason: 'close', runner_up: 'other_disease', photos_left: 2 },
    };
    const message = 'We could not find a leaf in this photo. Take a close photo of one leaf from the same field.';
    network(() => json({ error: { code: 'VALIDATION_ERROR', message, fields: { image: message } } }, 400));
    const user = userEvent.setup({ delay: null });
    renderWithProviders(<ResultWithReview result={close} />);
    expect(screen.getByTestId('more-photos-why').textContent).toBe(
      'The answer was close: it could be rust or another disease. One or two more photos of other leaves from the same field will help us be sure.',
    );
    await user.upload(picker(), leaf());
    expect(await screen.findByText(message)).toBeTruthy();
    expect(screen.getByTestId('more-photos')).toBeTruthy();
    expect(screen.queryByTestId('field-photos')).toBeNull();
  });

  it('does not ask when the answer is sure', () => {
    network(() => json(field));
    renderWithProviders(<ResultWithReview result={field} />);
    expect(screen.queryByTestId('more-photos')).toBeNull();
  });
});
