import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { notifications } from '@mantine/notifications';
import type { AnalysisResult } from '@kutu/contract';
import i18n from '../../lib/i18n.ts';
import { renderWithProviders } from '../../test/render.tsx';
import { analysisResult } from '../../test/analysis-result.ts';
import { fakeNetwork, json, type Sent } from '../../test/fakeServer.ts';
import { stubUpload } from '../../test/fake-upload.ts';
import { ResultCard } from './components/ResultCard.tsx';
import UploadImagePage from './pages/UploadImagePage.tsx';

afterEach(async () => {
  vi.unstubAllGlobals();
  notifications.clean();
  notifications.cleanQueue();
  await act(() => i18n.changeLanguage('en'));
});

const leaf = (name: string) => new File([new Uint8Array(2048)], name, { type: 'image/jpeg' });

/** The field's answer after each leaf, as the server sends it: unsure on one leaf, sure on three. */
const first = analysisResult({
  id: 42,
  confidence: 0.7,
  unsure: true,
  second_photo: { reason: 'unsure', runner_up: 'other_disease', photos_left: 2 },
});
const afterTwo: AnalysisResult = {
  ...first,
  confidence: 0.88,
  second_photo: { reason: 'unsure', runner_up: 'other_disease', photos_left: 1 },
};
const afterThree: AnalysisResult = {
  ...first,
  confidence: 0.97,
  unsure: false,
  probabilities: { common_rust: 0.97, healthy: 0.01, other_disease: 0.02 },
  second_photo: { reason: null, runner_up: null, photos_left: 0 },
};

describe('the upload asks for up to three leaves of the field', () => {
  it('takes three leaves, sends the first as the diagnosis and adds the other two: the answer is the field’s', async () => {
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:preview', revokeObjectURL: () => {} }));
    const uploads = stubUpload(201, first);
    const replies = [afterTwo, afterThree];
    const sent = fakeNetwork((s: Sent) =>
      s.method === 'POST' && s.url === '/api/rust-detection/42/photos/'
        ? json(replies.shift())
        : json({ error: { code: 'NOT_FOUND', message: 'Not found' } }, 404),
    );
    const user = userEvent.setup({ delay: null });
    renderWithProviders(<UploadImagePage />);
    expect(screen.getByTestId('upload-leaves-ask').textContent).toBe(
      'For a surer answer, photograph up to 3 leaves, each from a different plant of the same field. One photo is enough to start.',
    );
    const input = () => screen.getByTestId('image-dropzone').querySelector('input[type=file]') as HTMLInputElement;
    for (const name of ['a.jpg', 'b.jpg', 'c.jpg']) {
      await user.upload(input(), leaf(name));
      await waitFor(() =>
        expect(screen.getByRole('button', { name: 'Process Image' })).toHaveProperty('disabled', false),
      );
    }
    const previews = screen.getAllByTestId('upload-preview');
    expect(previews.map((p) => within(p).getByText(/^Leaf \d of 3$/).textContent)).toEqual([
      'Leaf 1 of 3',
      'Leaf 2 of 3',
      'Leaf 3 of 3',
    ]);
    // A fourth leaf cannot be picked: three make one field answer.
    expect(screen.getByRole('button', { name: 'Choose a photo' })).toHaveProperty('disabled', true);
    // One leaf can be taken out again.
    await user.click(screen.getByRole('button', { name: 'Remove leaf 2' }));
    expect(screen.getAllByTestId('upload-preview')).toHaveLength(2);
    await user.upload(input(), leaf('d.jpg'));
    await waitFor(() => expect(screen.getAllByTestId('upload-preview')).toHaveLength(3));

    await user.click(screen.getByRole('button', { name: 'Process Image' }));
    const card = await screen.findByTestId('analysis-result');
    await waitFor(() => expect(within(card).getByTestId('result-confidence').textContent).toBe('97%'));
    expect(uploads).toHaveLength(1);
    expect((uploads[0].get('image') as File).name).toBe('a.jpg');
    expect(uploads[0].get('crop')).toBe('maize');
    const added = sent.filter((s) => s.method === 'POST' && s.url === '/api/rust-detection/42/photos/');
    expect(added.map((s) => (s.form?.get('image') as File | undefined)?.name)).toEqual(['c.jpg', 'd.jpg']);
    expect(screen.queryByTestId('upload-preview')).toBeNull();
  });

  it('sends no other leaf after a first photo with no leaf, and says why', async () => {
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:preview', revokeObjectURL: () => {} }));
    stubUpload(
      201,
      analysisResult({
        id: 45,
        outcome: 'not_leaf',
        rust_class: null,
        second_photo: { reason: null, runner_up: null, photos_left: 0 },
      }),
    );
    const sent = fakeNetwork(() => json({ error: { code: 'NOT_FOUND', message: 'Not found' } }, 404));
    const user = userEvent.setup({ delay: null });
    renderWithProviders(<UploadImagePage />);
    const input = () => screen.getByTestId('image-dropzone').querySelector('input[type=file]') as HTMLInputElement;
    for (const name of ['a.jpg', 'b.jpg']) {
      await user.upload(input(), leaf(name));
      await waitFor(() =>
        expect(screen.getByRole('button', { name: 'Process Image' })).toHaveProperty('disabled', false),
      );
    }
    await user.click(screen.getByRole('button', { name: 'Process Image' }));
    await waitFor(() =>
      expect(screen.getByTestId('upload-error').textContent).toBe(
        'The first photo showed no leaf, so the other leaves were not sent. Start again with a close photo of a leaf first.',
      ),
    );
    expect(sent.filter((s) => s.url.includes('/photos/'))).toHaveLength(0);
  });

  it('still diagnoses from one leaf, and then offers the other leaves although the answer is sure', async () => {
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:preview', revokeObjectURL: () => {} }));
    const sure = analysisResult({ id: 43, second_photo: { reason: null, runner_up: null, photos_left: 2 } });
    stubUpload(201, sure);
    fakeNetwork(() => json({ error: { code: 'NOT_FOUND', message: 'Not found' } }, 404));
    const user = userEvent.setup({ delay: null });
    renderWithProviders(<UploadImagePage />);
    const input = screen.getByTestId('image-dropzone').querySelector('input[type=file]') as HTMLInputElement;
    await user.upload(input, leaf('a.jpg'));
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Process Image' })).toHaveProperty('disabled', false),
    );
    await user.click(screen.getByRole('button', { name: 'Process Image' }));
    const more = await screen.findByTestId('more-photos');
    expect(within(more).getByTestId('more-photos-why').textContent).toBe(
      'One leaf is a small part of a field. Photos of leaves from other plants of the same field make the answer surer.',
    );
    expect(within(more).getByText('You can add 2 more photos.')).toBeTruthy();
  });
});

describe('an unsure field answer with no leaf left', () => {
  const waiting = analysisResult({
    id: 44,
    confidence: 0.866,
    unsure: true,
    photos: [0, 1, 2].map((position) => ({
      position,
      url: `/api/rust-detection/44/photos/${position}/`,
      rust_class: 'common_rust' as const,
      confidence: 0.9,
    })),
    second_photo: { reason: null, runner_up: null, photos_left: 0 },
    feedback: {
      finding: { key: 'analysis.result.heading.unsure', values: { guess: { key: 'analysis.rustName.maize' } } },
      explanation: {
        key: 'analysis.result.explanation.unsure',
        values: { guess: { key: 'analysis.rustName.maize' }, percent: '86%' },
      },
      headline: 'We are not sure. Take a clearer photo or ask an expert.',
      advice: ['Photograph one leaf in daylight so that it fills the picture, with the sun behind you.'],
      more: ['Until you know more, do not buy a pesticide.'],
      advice_crop: 'general',
      sources: [],
    },
  });

  it('says the photos went to an expert, when to expect the answer and what to do meanwhile; it asks for no photo', () => {
    renderWithProviders(<ResultCard result={waiting} />);
    const wait = screen.getByTestId('result-expert-wait');
    expect(wait.textContent).toContain('Kutu is still not sure after 3 photos, so they went to Kutu’s plant experts.');
    expect(wait.textContent).toContain('within a day or two');
    expect(wait.textContent).toContain('Until then, do not buy or spray a pesticide.');
    expect(screen.queryByText(/Take a clearer photo/)).toBeNull();
    expect(screen.queryByText(/Photograph one leaf in daylight/)).toBeNull();
  });

  it('says it in Kiswahili and Luganda, and says "when the phone has a signal" for an answer made offline', async () => {
    await act(() => i18n.changeLanguage('sw'));
    const { unmount } = renderWithProviders(<ResultCard result={waiting} />);
    expect(screen.getByTestId('result-expert-wait').textContent).toContain('zimetumwa kwa wataalamu');
    unmount();
    await act(() => i18n.changeLanguage('lg'));
    renderWithProviders(<ResultCard result={{ ...waiting, id: 0, photos: [] }} actions={false} />);
    expect(screen.getByTestId('result-expert-wait').textContent).toContain('bw’eneddamu okufuna omukutu');
  });
});
