import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { notifications } from '@mantine/notifications';
import type { Field } from '@kutu/contract';
import { renderWithProviders } from '../../test/render.tsx';
import { stubUpload } from '../../test/fake-upload.ts';
import { analysisResult } from '../../test/analysis-result.ts';
import { fakeServer } from '../../test/fakeServer.ts';
import { page, testField, testWalk } from '../../test/fields.ts';
import { ResultCard } from './components/ResultCard.tsx';
import UploadImagePage from './pages/UploadImagePage.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  notifications.clean();
});

const river = testField();
const hill = testField({ id: 4, name: 'Hill plot', crop: 'beans' });

const dropInput = () => screen.getByTestId('image-dropzone').querySelector('input[type=file]') as HTMLInputElement;
const leaf = () => new File([new Uint8Array(2048)], 'leaf.jpg', { type: 'image/jpeg' });

async function process(user: ReturnType<typeof userEvent.setup>) {
  await user.upload(dropInput(), leaf());
  await waitFor(() => expect(screen.getByRole('button', { name: 'Process Image' })).toHaveProperty('disabled', false));
  await user.click(screen.getByRole('button', { name: 'Process Image' }));
}

describe('the upload screen asks which field', () => {
  it('offers the last field used first, chosen already, and sends the photo with it and its crop', async () => {
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:preview', revokeObjectURL: () => {} }));
    localStorage.setItem('lastField:0', '4');
    fakeServer(({ url }) =>
      url.startsWith('/api/fields/?') ? { status: 200, body: page([river, hill]) } : { status: 404 },
    );
    const sent = stubUpload(201, analysisResult({ crop: 'beans', field: { id: 4, name: 'Hill plot' } }));
    const user = userEvent.setup({ delay: null });
    renderWithProviders(<UploadImagePage />);
    const choice = await screen.findByTestId('field-choice');
    const buttons = await within(choice).findAllByRole('button', { pressed: true });
    expect(buttons.map((b) => b.textContent)).toEqual(['Hill plot (Beans)']);
    expect(
      within(choice)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Hill plot (Beans)', 'Near the river (Maize)', 'A new field']);
    // The field says the crop.
    expect(within(screen.getByTestId('crop-choice')).getByLabelText('Beans')).toHaveProperty('checked', true);

    await process(user);
    const card = await screen.findByTestId('analysis-result');
    expect(sent[0]!.get('field_id')).toBe('4');
    expect(sent[0]!.get('crop')).toBe('beans');
    expect((await within(card).findByTestId('result-field')).textContent).toBe('Field: Hill plot');
    expect(localStorage.getItem('lastField:0')).toBe('4');
  });

  it('one tap chooses another field', async () => {
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:preview', revokeObjectURL: () => {} }));
    fakeServer(({ url }) =>
      url.startsWith('/api/fields/?') ? { status: 200, body: page([river, hill]) } : { status: 404 },
    );
    const sent = stubUpload(201, analysisResult({ field: { id: 3, name: 'Near the river' } }));
    const user = userEvent.setup({ delay: null });
    renderWithProviders(<UploadImagePage />);
    const choice = await screen.findByTestId('field-choice');
    await user.click(await within(choice).findByRole('button', { name: 'Hill plot (Beans)' }));
    expect(within(choice).getByRole('button', { name: 'Hill plot (Beans)' }).getAttribute('aria-pressed')).toBe('true');
    await process(user);
    await screen.findByTestId('analysis-result');
    expect(sent[0]!.get('field_id')).toBe('4');
  });

  it('takes the crop the farmer taps over the field used last: a bean leaf goes to the bean field, as beans', async () => {
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:preview', revokeObjectURL: () => {} }));
    // The maize field was used last, so it is chosen at first.
    localStorage.setItem('lastField:0', '3');
    const valley = testField({ id: 5, name: 'Valley', crop: 'beans' });
    fakeServer(({ url }) =>
      url.startsWith('/api/fields/?') ? { status: 200, body: page([river, valley, hill]) } : { status: 404 },
    );
    const sent = stubUpload(201, analysisResult({ crop: 'beans', field: { id: 5, name: 'Valley' } }));
    const user = userEvent.setup({ delay: null });
    renderWithProviders(<UploadImagePage />);
    const choice = await screen.findByTestId('field-choice');
    await within(choice).findByRole('button', { name: 'Near the river (Maize)', pressed: true });
    const crops = screen.getByTestId('crop-choice');
    expect(within(crops).getByLabelText('Maize')).toHaveProperty('checked', true);

    // The crop stays the farmer's to choose: Beans takes the newest bean field instead of the maize one.
    expect(within(crops).getByLabelText('Beans')).toHaveProperty('disabled', false);
    await user.click(within(crops).getByText('Beans'));
    await within(choice).findByRole('button', { name: 'Valley (Beans)', pressed: true });
    expect(within(crops).getByLabelText('Beans')).toHaveProperty('checked', true);
    await process(user);
    await screen.findByTestId('analysis-result');
    expect(sent[0]!.get('crop')).toBe('beans');
    expect(sent[0]!.get('field_id')).toBe('5');
  });

  it('with no field of the crop tapped, sends none: the server puts the photo in a field of that crop', async () => {
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:preview', revokeObjectURL: () => {} }));
    localStorage.setItem('lastField:0', '3');
    fakeServer(({ url }) => (url.startsWith('/api/fields/?') ? { status: 200, body: page([river]) } : { status: 404 }));
    const sent = stubUpload(201, analysisResult({ crop: 'beans', field: { id: 9, name: 'Beans field' } }));
    const user = userEvent.setup({ delay: null });
    renderWithProviders(<UploadImagePage />);
    const choice = await screen.findByTestId('field-choice');
    await within(choice).findByRole('button', { name: 'Near the river (Maize)', pressed: true });
    await user.click(within(screen.getByTestId('crop-choice')).getByText('Beans'));
    await waitFor(() => expect(within(choice).queryByRole('button', { pressed: true })).toBeNull());
    await process(user);
    await screen.findByTestId('analysis-result');
    expect(sent[0]!.get('crop')).toBe('beans');
    expect(sent[0]!.get('field_id')).toBeNull();
  });

  it('keeps the answer where the screen brought it: the follow-up offer the answer opens does not come above it', async () => {
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:preview', revokeObjectURL: () => {} }));
    let answered = false;
    const open = { analysis_id: 7, crop: 'maize', analysed_at: '2026-11-25T08:00:00.000Z', remind_at: null };
    fakeServer(({ url }) => {
      if (url.startsWith('/api/fields/?')) return { status: 200, body: page([river]) };
      // The rust answer opens a follow-up: the offer is there once the answer is.
      if (url === '/api/follow-ups/open/') return { status: 200, body: { results: answered ? [open] : [] } };
      return { status: 404 };
    });
    const sent = stubUpload(201, analysisResult({ id: 7, field: { id: 3, name: 'Near the river' } }));
    const user = userEvent.setup({ delay: null });
    renderWithProviders(<UploadImagePage />);
    await screen.findByTestId('field-choice');
    answered = true;
    await process(user);
    await screen.findByTestId('analysis-result');
    expect(sent).toHaveLength(1);
    // The answer's refetch of the open follow-ups has come back, and nothing appeared above the answer.
    const heading = screen.getByRole('heading', { name: 'Your result' });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(screen.queryByTestId('follow-up-choice')).toBeNull();
    // A next leaf clears the answer, and the offer is there for it.
    await user.upload(dropInput(), leaf());
    expect(await screen.findByTestId('follow-up-choice')).toBeTruthy();
  });

  it('adds "a new field" inline, with a name and the crop chosen, and sends the photo with it', async () => {
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:preview', revokeObjectURL: () => {} }));
    let fields: Field[] = [];
    const calls = fakeServer(({ method, url, body }) => {
      if (method === 'POST' && url === '/api/fields/') {
        const made = testField({ id: 8, ...(body as Partial<Field>) });
        fields = [made];
        return { status: 201, body: made };
      }
      return url.startsWith('/api/fields/?') ? { status: 200, body: page(fields) } : { status: 404 };
    });
    const sent = stubUpload(201, analysisResult({ field: { id: 8, name: 'Valley' } }));
    const user = userEvent.setup({ delay: null });
    renderWithProviders(<UploadImagePage />);
    // No field yet: the new field's name is asked at once.
    const form = await screen.findByTestId('new-field');
    await user.click(within(form).getByRole('button', { name: 'Add the field' }));
    expect(await within(form).findByText('Give the field a name', {}, { timeout: 10_000 })).toBeTruthy();
    await user.click(within(screen.getByTestId('crop-choice')).getByText('Beans'));
    await user.type(within(form).getByLabelText(/Name of the new field/), 'Valley');
    await user.click(within(form).getByRole('button', { name: 'Add the field' }));
    await waitFor(() => expect(screen.queryByTestId('new-field')).toBeNull());
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ name: 'Valley', crop: 'beans' });
    await process(user);
    await screen.findByTestId('analysis-result');
    expect(sent[0]!.get('field_id')).toBe('8');
    expect(sent[0]!.get('crop')).toBe('beans');
  });
});

describe('a rust result asks for a walk of its field', () => {
  const rust = analysisResult({ field: { id: 3, name: 'Near the river' }, created_at: '2026-11-25T08:00:00.000Z' });

  it('asks for a walk of the field when none was made since the photo', async () => {
    const calls = fakeServer(({ url }) =>
      url === '/api/fields/3/'
        ? {
            status: 200,
            body: testField({
              last_walk: testWalk({ looked: 50, rust: 2 }, { walked_at: '2026-11-12T09:00:00.000Z' }),
            }),
          }
        : { status: 404 },
    );
    renderWithProviders(<ResultCard result={rust} actions={false} />);
    const ask = await screen.findByTestId('walk-ask');
    await waitFor(() => expect(calls.map((c) => c.url)).toEqual(['/api/fields/3/']));
    // The field's last walk (12 Nov) is older than the photo (25 Nov).
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(ask.textContent).toContain('Walk your field to know how much of it has rust');
    expect(within(ask).getByRole('link', { name: 'Walk Near the river' }).getAttribute('href')).toBe(
      '/account/fields/3/walk',
    );
  });

  it('says what a walk since the photo found instead', async () => {
    fakeServer(({ url }) =>
      url === '/api/fields/3/'
        ? { status: 200, body: testField({ last_walk: testWalk({ looked: 50, rust: 14 }) }) }
        : { status: 404 },
    );
    renderWithProviders(<ResultCard result={rust} actions={false} />);
    const ask = await screen.findByTestId('walk-ask');
    await waitFor(() => expect(ask.textContent).toMatch(/^You walked Near the river on .+: rust on 14 of 50 plants\./));
    expect(within(ask).getByRole('link', { name: "See the field's advice" }).getAttribute('href')).toBe(
      '/account/fields/3',
    );
  });

  it('does not ask on an answer that is not rust, and still names its field', async () => {
    renderWithProviders(<ResultCard result={{ ...rust, rust_class: 'healthy' }} actions={false} />);
    expect((await screen.findByTestId('result-field')).textContent).toBe('Field: Near the river');
    expect(screen.queryByTestId('walk-ask')).toBeNull();
  });
});
