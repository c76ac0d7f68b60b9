import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { notifications } from '@mantine/notifications';
import { renderWithProviders } from '../../test/render.tsx';
import ModelTrainingPage from './pages/ModelTrainingPage.tsx';
import { formatElapsed, jobProgress } from './components/TrainingJobs.tsx';
import { fakeNetwork, json } from '../../test/fakeServer.ts';

afterEach(() => {
  vi.unstubAllGlobals();
  notifications.clean();
  notifications.cleanQueue();
});

const empty = { count: 0, next: null, previous: null, results: [] };

/** Answers the page's GETs; records uploads and answers them with `uploadStatus`. */
function stubServer(
  uploadStatus = 201,
  uploadBody: unknown = { message: 'Training data submitted successfully', samples: [], job_id: null },
) {
  const uploads: FormData[] = [];
  let healthy = 2;
  fakeNetwork(({ url, form }) => {
    if (url.startsWith('/api/upload-training-images/')) {
      uploads.push(form!);
      if (uploadStatus === 201) healthy += 1;
      return json(uploadBody, uploadStatus);
    }
    if (url.startsWith('/api/training-samples/counts/')) {
      return json({
        common_rust: 1,
        healthy,
        other_disease: 0,
        total: healthy + 1,
        new_since_last_job: 3,
        retrain_after: 50,
        held_back: 4,
      });
    }
    if (url.startsWith('/api/expert-reviews/field-accuracy/')) {
      return json({ versions: [], model_answers: [], verdicts: [] });
    }
    const fieldGate = fieldGateReply(url);
    if (fieldGate) return fieldGate;
    return json(empty);
  });
  return uploads;
}

/** The field figures and held-back photos as a server with no verdict yet answers them (docs/decisions/0086). */
function fieldGateReply(url: string) {
  if (url.startsWith('/api/expert-reviews/field-figures/')) return json({ rows: [], months: 12 });
  if (url.startsWith('/api/model-training/field-set/')) {
    return json({ min_photos: 30, hold_out_every: 5, alpha: 0.05, crops: [], last_check: null });
  }
  return undefined;
}

/** The upload form's label picker (not the list filter's nor a sample's). */
const labelPicker = () => screen.getByRole<HTMLSelectElement>('combobox', { name: 'Label' });

/** Picks a label in the upload form. */
async function chooseLabel(user: ReturnType<typeof userEvent.setup>, name: string) {
  await user.selectOptions(labelPicker(), name);
}

function leaf(name = 'leaf.jpg') {
  return new File([new Uint8Array(1000)], name, { type: 'image/jpeg' });
}

describe('Model Training page', () => {
  it('asks for a photo, then a label, submits both and clears the form', async () => {
    const uploads = stubServer();
    const user = userEvent.setup();
    const { container } = renderWithProviders(<ModelTrainingPage />);
    // The upload form loads just after the page (components/OnDemand.tsx).
    await screen.findByRole('button', { name: 'Submit for Training' });
    await waitFor(() => expect(screen.getByTestId('count-healthy').textContent).toContain('2'));

    await user.click(screen.getByRole('button', { name: 'Submit for Training' }));
    expect((await screen.findAllByText('Please upload a valid image for training.')).length).toBeGreaterThan(0);

    const input = container.querySelector('input[type=file]') as HTMLInputElement;
    fireEvent.change(input, { target: { files: [leaf('a.jpg'), leaf('b.jpg')] } });
    expect(await screen.findByText('a.jpg')).toBeTruthy();
    expect(screen.getByText('b.jpg')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Submit for Training' }));
    expect((await screen.findAllByText('Please select a label for training.')).length).toBeGreaterThan(0);
    expect(uploads).toHaveLength(0);

    await chooseLabel(user, 'Healthy');
    await user.click(screen.getByRole('button', { name: 'Submit for Training' }));

    expect(await screen.findByText('Training data submitted successfully')).toBeTruthy();
    expect(uploads).toHaveLength(1);
    expect(uploads[0].get('label')).toBe('healthy');
    expect(uploads[0].getAll('image').map((f) => (f as File).name)).toEqual(['a.jpg', 'b.jpg']);
    await waitFor(() => expect(screen.queryByText('a.jpg')).toBeNull());
    expect(labelPicker().value).toBe('');
    await waitFor(() => expect(screen.getByTestId('count-healthy').textContent).toContain('3'));
  });

  it('names the refused photo with the real reason, and clears the message once photos are accepted and sent', async () => {
    const uploads = stubServer();
    const user = userEvent.setup();
    const { container } = renderWithProviders(<ModelTrainingPage />);
    // The upload form loads just after the page (components/OnDemand.tsx).
    await screen.findByRole('button', { name: 'Submit for Training' });
    await waitFor(() => expect(screen.getByTestId('count-healthy').textContent).toContain('2'));
    const input = container.querySelector('input[type=file]') as HTMLInputElement;

    // Not a photo: the reason is the file type, with the file's name, not "upload a valid image".
    fireEvent.change(input, { target: { files: [new File(['notes'], 'notes.txt', { type: 'text/plain' })] } });
    expect(await screen.findByTestId('training-error')).toHaveProperty(
      'textContent',
      'notes.txt: File type not supported',
    );
    // A photo still over the limit after this device tried to shrink it (this test's browser cannot): the size.
    const huge = new File([new Uint8Array(5 * 1024 * 1024 + 1)], 'huge.jpg', { type: 'image/jpeg' });
    fireEvent.change(input, { target: { files: [huge] } });
    await waitFor(() =>
      expect(screen.getByTestId('training-error').textContent).toBe('huge.jpg: File too big (max: 5 MB)'),
    );

    fireEvent.change(input, { target: { files: [leaf('good.jpg')] } });
    expect(await screen.findByText('good.jpg')).toBeTruthy();
    await waitFor(() => expect(screen.queryByTestId('training-error')).toBeNull());
    await chooseLabel(user, 'Healthy');
    await user.click(screen.getByRole('button', { name: 'Submit for Training' }));
    expect(await screen.findByText('Training data submitted successfully')).toBeTruthy();
    expect(uploads).toHaveLength(1);
    expect(screen.queryByTestId('training-error')).toBeNull();
  });

  it("shows the server's message when the upload is refused, and keeps the photos", async () => {
    stubServer(415, { error: { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'File type not supported' } });
    const user = userEvent.setup();
    const { container } = renderWithProviders(<ModelTrainingPage />);
    // The upload form loads just after the page (components/OnDemand.tsx).
    await screen.findByRole('button', { name: 'Submit for Training' });
    fireEvent.change(container.querySelector('input[type=file]') as HTMLInputElement, {
      target: { files: [leaf('c.jpg')] },
    });
    await chooseLabel(user, 'Common Rust');
    await user.click(screen.getByRole('button', { name: 'Submit for Training' }));
    expect((await screen.findAllByText('File type not supported')).length).toBeGreaterThan(0);
    expect(screen.getByText('c.jpg')).toBeTruthy();
  });

  it('says when a list failed to load, with a retry that loads it, and says when a list is empty', async () => {
    let sampleCalls = 0;
    fakeNetwork(({ url }) => {
      if (url.startsWith('/api/training-samples/?')) {
        sampleCalls += 1;
        if (sampleCalls === 1) {
          return json({ error: { code: 'INTERNAL_ERROR', message: 'Something went wrong on our side.' } }, 500);
        }
      }
      if (url.startsWith('/api/expert-reviews/field-accuracy/')) {
        return json({ versions: [], model_answers: [], verdicts: [] });
      }
      return fieldGateReply(url) ?? json(empty);
    });
    renderWithProviders(<ModelTrainingPage />);
    expect(await screen.findByText('Could not load this list')).toBeTruthy();
    expect(screen.getByText('Something went wrong on our side.')).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Training samples' })).toBeNull();
    // The other lists loaded: the job history has none yet.
    expect(await screen.findByText('No retraining has run yet.')).toBeTruthy();
    expect(screen.queryByText('No training samples yet.')).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('No training samples yet.')).toBeTruthy();
    expect(screen.queryByText('Could not load this list')).toBeNull();
    expect(sampleCalls).toBe(2);
  });

  it('formats elapsed time for the progress line', () => {
    expect(formatElapsed(null)).toBe('');
    expect(formatElapsed(42.4)).toBe('42s');
    expect(formatElapsed(125)).toBe('2m 5s');
    expect(formatElapsed(3725)).toBe('1h 2m 5s');
  });

  it('moves the progress bar through the stages: the features, then the fit, then the comparison', () => {
    const at = (stage: string, progress: Record<string, unknown> | null, epoch = 0, epochs = 1) =>
      jobProgress({ stage, progress, epoch, epochs });
    expect(at('preparing', { done: 0, total: 4566 })).toBe(0);
    expect(at('preparing', { done: 2283, total: 4566 })).toBe(35);
    expect(at('training', { done: 50, total: 100 })).toBe(80);
    expect(at('evaluating', null, 1, 1)).toBe(100);
    // A trainer that reports epochs only (KutuNet) moves by epoch within its stage.
    expect(at('training', null, 3, 6)).toBe(80);
  });
});
