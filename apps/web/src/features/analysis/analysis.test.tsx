import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { notifications } from '@mantine/notifications';
import type { AnalysisResult } from '@kutu/contract';
import { act } from '@testing-library/react';
import i18n from '../../lib/i18n.ts';
import luganda from '../../lib/locales/lg.json';
import { renderWithProviders } from '../../test/render.tsx';
import { stubUpload } from '../../test/fake-upload.ts';
import { saying } from '../../test/analysis-result.ts';
import { ResultCard } from './components/ResultCard.tsx';
import EducationResourcesPage from './pages/EducationResourcesPage.tsx';
import UploadImagePage from './pages/UploadImagePage.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  notifications.clean();
  notifications.cleanQueue();
});

const result: AnalysisResult = {
  id: 42,
  outcome: 'diagnosis',
  rust_class: 'common_rust',
  confidence: 0.871234,
  unsure: false,
  probabilities: { common_rust: 0.871234, healthy: 0.1, other_disease: 0.028766 },
  crop: 'maize',
  heatmap_url: null,
  educational_resources: [
    {
      title: 'Common rust (Maize Doctor)',
      url: 'http://maizedoctor.cimmyt.org/common-rust',
      description: 'CIMMYT field-identification sheet.',
      link_language: 'en',
    },
    {
      title: 'Bean rust',
      url: 'https://infonet-biovision.org/PlantHealth/MinorPests/bean-rust',
      description: 'East-Africa-oriented page.',
      link_language: 'en',
    },
  ],
  feedback: {
    finding: { key: 'analysis.result.heading.rust_maize' },
    explanation: { key: 'analysis.result.explanation.rust_maize' },
    headline: 'Rust on maize: check how far it has spread.',
    advice: ['Confirm it is rust with the rub test.', 'Walk the field.', 'Ask the plant clinic.'],
    more: ['Plant a resistant variety next season.'],
    advice_crop: 'maize',
    sources: [{ title: 'Common rust (Maize Doctor)', url: 'http://maizedoctor.cimmyt.org/common-rust' }],
  },
  model_version: 'v-test',
  created_at: '2026-03-02T08:00:00.000Z',
  image_url: '/api/rust-detection/42/image/',
  photos: [{ position: 0, url: '/api/rust-detection/42/image/', rust_class: 'common_rust', confidence: 0.871234 }],
  second_photo: { reason: null, runner_up: null, photos_left: 0 },
};

function file(name: string, type: string, bytes: number) {
  return new File([new Uint8Array(bytes)], name, { type });
}

describe('Upload Image', () => {
  const dropInput = () => screen.getByTestId('image-dropzone').querySelector('input[type=file]') as HTMLInputElement;

  it("says 'Please upload an image to process.' when Process Image is pressed without one", async () => {
    const user = userEvent.setup({ delay: null });
    renderWithProviders(<UploadImagePage />);
    await user.click(screen.getByRole('button', { name: 'Process Image' }));
    expect((await screen.findByTestId('upload-error')).textContent).toBe('Please upload an image to process.');
  });

  it('refuses other file types, files over 5 MB and more than one file with the spec messages', async () => {
    const user = userEvent.setup({ delay: null, applyAccept: false });
    renderWithProviders(<UploadImagePage />);
    await user.upload(dropInput(), file('leaf.gif', 'image/gif', 100));
    await waitFor(() => expect(screen.getByTestId('upload-error').textContent).toBe('File type not supported'));
    await user.upload(dropInput(), file('leaf.jpg', 'image/jpeg', 5 * 1024 * 1024 + 1));
    await waitFor(() => expect(screen.getByTestId('upload-error').textContent).toBe('File too big (max: 5 MB)'));
    // Two files dropped at once (the file picker of a single-file input cannot choose two).
    const files = [file('a.jpg', 'image/jpeg', 100), file('b.png', 'image/png', 100)];
    fireEvent.drop(screen.getByTestId('image-dropzone'), {
      dataTransfer: {
        files,
        items: files.map((f) => ({ kind: 'file', type: f.type, getAsFile: () => f })),
        types: ['Files'],
      },
    });
    await waitFor(() =>
      expect(screen.getByTestId('upload-error').textContent).toBe('You can only upload one image at a time'),
    );
    expect(screen.queryByTestId('upload-preview')).toBeNull();
  });

  it('sends the photo in the field "image" and shows the disease, the confidence as a whole percent and the links', async () => {
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:preview', revokeObjectURL: () => {} }));
    const sent = stubUpload(201, result);
    const user = userEvent.setup({ delay: null });
    renderWithProviders(<UploadImagePage />);
    await user.upload(dropInput(), file('leaf.jpg', 'image/jpeg', 2048));
    expect(await screen.findByTestId('upload-preview')).toBeTruthy();
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Process Image' })).toHaveProperty('disabled', false),
    );
    await user.click(screen.getByRole('button', { name: 'Process Image' }));
    const card = await screen.findByTestId('analysis-result');
    expect(within(card).getByTestId('result-heading').textContent).toBe('Signs of common rust (Puccinia sorghi)');
    expect(within(card).getByTestId('result-confidence').textContent).toBe('87%');
    expect(within(card).getByText('Confirm it is rust with the rub test.')).toBeTruthy();
    expect(
      within(card)
        .getByRole('link', { name: /education resources/i })
        .getAttribute('href'),
    ).toBe('/account/addresses/education-resources?analysis=42');
    expect(
      within(card)
        .getByRole('link', { name: /Book a Slot/ })
        .getAttribute('href'),
    ).toBe('/account/addresses/slots');
    expect(await screen.findByText('Image analysis successfully done')).toBeTruthy();
    expect(sent).toHaveLength(1);
    expect((sent[0].get('image') as File).name).toBe('leaf.jpg');
  });

  it('an unsure answer and a photo with no leaf get a plain notice, with no "Success" over it', async () => {
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:preview', revokeObjectURL: () => {} }));
    const user = userEvent.setup({ delay: null });
    renderWithProviders(<UploadImagePage />);
    for (const answer of [
      { ...result, unsure: true },
      { ...result, outcome: 'not_leaf', rust_class: null },
    ]) {
      stubUpload(201, answer);
      await user.upload(dropInput(), file('leaf.jpg', 'image/jpeg', 2048));
      await waitFor(() =>
        expect(screen.getByRole('button', { name: 'Process Image' })).toHaveProperty('disabled', false),
      );
      await user.click(screen.getByRole('button', { name: 'Process Image' }));
      expect(await screen.findByText('The photo was checked: read the answer below')).toBeTruthy();
      expect(screen.queryByText('Success')).toBeNull();
      expect(screen.queryByText('Image analysis successfully done')).toBeNull();
    }
  });

  it("shows the server's message in red and as a notice, or 'Failed to upload image' when there is none", async () => {
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:preview', revokeObjectURL: () => {} }));
    stubUpload(400, { error: { code: 'BAD_REQUEST', message: 'The image is damaged or incomplete' } });
    const user = userEvent.setup({ delay: null });
    renderWithProviders(<UploadImagePage />);
    await user.upload(dropInput(), file('leaf.jpg', 'image/jpeg', 2048));
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Process Image' })).toHaveProperty('disabled', false),
    );
    await user.click(screen.getByRole('button', { name: 'Process Image' }));
    await waitFor(() =>
      expect(screen.getByTestId('upload-error').textContent).toBe('The image is damaged or incomplete'),
    );
    expect(screen.getAllByText('The image is damaged or incomplete').length).toBeGreaterThan(1);

    stubUpload(502, 'not json');
    await user.click(screen.getByRole('button', { name: 'Process Image' }));
    await waitFor(() => expect(screen.getByTestId('upload-error').textContent).toBe('Failed to upload image'));
  });
});

describe('Education resources', () => {
  function stubFetch(reply: (url: string) => unknown) {
    const calls: string[] = [];
    vi.stubGlobal('fetch', async (url: string) => {
      calls.push(url);
      const body = reply(url);
      const status = (body as { __status?: number })?.__status ?? 200;
      return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    });
    return calls;
  }
  const page = (route: string) =>
    renderWithProviders(
      <Routes>
        <Route path="/account/addresses/education-resources" element={<EducationResourcesPage />} />
      </Routes>,
      { route },
    );

  it("lists the newest result's resources in an accordion, with breadcrumbs", async () => {
    const calls = stubFetch(() => ({ count: 1, next: null, previous: null, results: [result] }));
    const user = userEvent.setup({ delay: null });
    page('/account/addresses/education-resources');
    expect(await screen.findByRole('button', { name: 'Common rust (Maize Doctor)' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Education Resources' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Dashboard' }).getAttribute('href')).toBe('/account');
    expect(calls[0]).toContain('/api/rust-detection/?page=1&page_size=1');
    await user.click(screen.getByRole('button', { name: 'Bean rust' }));
    const link = await screen.findByRole('link', { name: /infonet-biovision\.org/ });
    expect(link.getAttribute('href')).toBe('https://infonet-biovision.org/PlantHealth/MinorPests/bean-rust');
    expect(link.getAttribute('rel')).toContain('noopener');
  });

  it("marks a link whose page is not in the reader's language, and only that one", async () => {
    const [maize, bean] = result.educational_resources;
    const mixed = { ...result, educational_resources: [maize, { ...bean, link_language: 'sw' as const }] };
    stubFetch(() => mixed);
    const user = userEvent.setup({ delay: null });
    page('/account/addresses/education-resources?analysis=42');
    await user.click(await screen.findByRole('button', { name: 'Bean rust' }));
    expect(await screen.findByText('(in Kiswahili)')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Common rust (Maize Doctor)' }));
    await screen.findByRole('link', { name: /maizedoctor\.cimmyt\.org/ });
    expect(screen.getAllByTestId('resource-link-language')).toHaveLength(1);
    expect(screen.queryByText('(in English)')).toBeNull();
  });

  it('opens the result chosen from history (?analysis=ID)', async () => {
    const calls = stubFetch(() => result);
    page('/account/addresses/education-resources?analysis=42');
    expect(await screen.findByRole('button', { name: 'Common rust (Maize Doctor)' })).toBeTruthy();
    expect(calls[0]).toContain('/api/rust-detection/42/');
  });

  it('shows an empty state when there is no result yet', async () => {
    stubFetch(() => ({ count: 0, next: null, previous: null, results: [] }));
    page('/account/addresses/education-resources');
    expect(await screen.findByTestId('resources-empty')).toBeTruthy();
    expect(screen.getByText('No result yet')).toBeTruthy();
  });

  it('shows the error and a retry when the result cannot be loaded', async () => {
    stubFetch(() => ({ __status: 404, error: { code: 'NOT_FOUND', message: 'Analysis not found' } }));
    page('/account/addresses/education-resources?analysis=7');
    expect(await screen.findByText('Analysis not found')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });
});

describe('the rust is named as the farmers of the crop call it', () => {
  afterEach(async () => {
    await act(() => i18n.changeLanguage('en'));
  });

  it('calls rust on beans "bean rust", on maize "common rust", on an unnamed crop "rust"', () => {
    renderWithProviders(
      <>
        <div data-testid="beans">
          <ResultCard result={saying({ ...result, crop: 'beans' })} actions={false} />
        </div>
        <div data-testid="maize">
          <ResultCard result={saying({ ...result, crop: 'maize' })} actions={false} />
        </div>
        <div data-testid="other">
          <ResultCard result={saying({ ...result, crop: null, unsure: true })} actions={false} />
        </div>
      </>,
    );
    const heading = (id: string) => within(screen.getByTestId(id)).getByTestId('result-heading').textContent;
    expect(heading('beans')).toBe('Signs of bean rust (Uromyces appendiculatus)');
    expect(within(screen.getByTestId('beans')).getByTestId('advice-more').textContent).toMatch(/bean rust/);
    expect(heading('maize')).toBe('Signs of common rust (Puccinia sorghi)');
    expect(heading('other')).toBe('Not sure: possibly Rust');
  });

  it("explains the result in Luganda, not in the server's English", async () => {
    i18n.addResourceBundle('lg', 'translation', luganda, true, true);
    await act(() => i18n.changeLanguage('lg'));
    renderWithProviders(<ResultCard result={saying({ ...result, crop: 'beans', unsure: true })} actions={false} />);
    expect(screen.getByTestId('result-heading').textContent).toBe(
      'Tetuli bakakafu: oboolyawo Kutu ya bijanjaalo (Uromyces appendiculatus)',
    );
    expect(screen.getByTestId('result-notice').textContent).toContain('Kutu ya bijanjaalo (Uromyces appendiculatus)');
    expect(screen.getByTestId('result-notice').textContent).not.toMatch(/best guess|Kutu's/);
  });
});
