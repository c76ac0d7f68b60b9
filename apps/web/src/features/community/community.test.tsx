import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { notifications } from '@mantine/notifications';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../lib/i18n.ts';
import swahili from '../../lib/locales/sw.json';
import luganda from '../../lib/locales/lg.json';
import type { CommunityPost } from '@kutu/contract';
import { renderWithProviders } from '../../test/render.tsx';
import { CommentDialog } from './components/CommentDialog.tsx';
import { CommentsDialog } from './components/CommentsDialog.tsx';
import { PostCard } from './components/PostCard.tsx';
import { PostFilters } from './components/PostFilters.tsx';
import { PostForm } from './components/PostForm.tsx';
import AllPostsPage from './pages/AllPostsPage.tsx';
import { fakeNetwork, json } from '../../test/fakeServer.ts';

/** Picks the post's crop, disease and urgency in the form's pickers (the phone's own <select>s). */
async function chooseCropDiseaseUrgency(user: ReturnType<typeof userEvent.setup>) {
  await user.selectOptions(screen.getByRole('combobox', { name: /Crop type/ }), 'Maize');
  await user.selectOptions(screen.getByRole('combobox', { name: /Disease/ }), 'Common rust (Puccinia sorghi)');
  await user.selectOptions(screen.getByRole('combobox', { name: /Urgency level/ }), 'High');
}

const post = (over: Partial<CommunityPost> = {}): CommunityPost => ({
  id: 7,
  title: 'Orange spots on maize',
  content: 'Small orange pustules on the leaves.',
  image: null,
  disease_type: 'common_rust',
  crop_type: 'MAIZE',
  urgency_level: 'high',
  rust_detection: null,
  analysis: null,
  is_flagged: false,
  is_approved: true,
  status: 'approved',
  moderation_reason: null,
  created_at: '2026-03-01T08:00:00.000Z',
  author: 'amina',
  farmer_comments: [],
  expert_comments: [],
  ...over,
});

// Mantine's autosize textarea listens to document.fonts, which jsdom lacks.
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', {
    configurable: true,
    value: { addEventListener() {}, removeEventListener() {}, ready: Promise.resolve() },
  });
}

type Call = { url: string; method: string; body: unknown; form?: FormData };
let calls: Call[];
let reply: (call: Call) => { status: number; body: unknown };

beforeEach(() => {
  calls = [];
  reply = () => ({ status: 200, body: {} });
  fakeNetwork(({ url, method, body, form }) => {
    const call = { url, method, body, form };
    calls.push(call);
    const answer = reply(call);
    return json(answer.body, answer.status);
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  // Notices live in a global store: one test's must not fill the screen (or answer a query) of the next.
  notifications.clean();
  notifications.cleanQueue();
});

describe('PostForm', () => {
  it('checks the fields with the contract schema before sending anything', async () => {
    renderWithProviders(<PostForm />);
    fireEvent.change(screen.getByLabelText(/Title/), { target: { value: 'Hey' } });
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Title must be at least 5 characters')).toBeTruthy();
    expect(screen.getByText('Content must be at least 10 characters')).toBeTruthy();
    expect(screen.getByText('Choose the crop: Maize, Wheat, Rice or Beans')).toBeTruthy();
    expect(screen.getByText('Choose how urgent it is: Low, Medium or High')).toBeTruthy();
    // No code names reach the farmer, and the disease may stay "I don't know".
    expect(screen.queryByText(/MAIZE|common_rust|low, medium/)).toBeNull();
    expect(screen.queryByText(/Choose a disease/)).toBeNull();
    expect(calls).toEqual([]);
  });

  it('counts the title instead of cutting it, and says when it is too long', async () => {
    renderWithProviders(<PostForm />);
    const long = 'x'.repeat(160);
    fireEvent.change(screen.getByLabelText(/Title/), { target: { value: long } });
    expect((screen.getByLabelText(/Title/) as HTMLInputElement).value).toBe(long);
    expect(screen.getByText('160 of 150 characters')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Title must be at most 150 characters')).toBeTruthy();
  });

  it("shows 'Fill in all the fields' and the server's field messages when the server refuses", async () => {
    reply = () => ({
      status: 400,
      body: { error: { code: 'VALIDATION_ERROR', message: 'x', fields: { title: 'Title is taken by the server' } } },
    });
    const user = userEvent.setup();
    renderWithProviders(<PostForm />);
    fireEvent.change(screen.getByLabelText(/Title/), { target: { value: 'Rust on my maize' } });
    fireEvent.change(screen.getByLabelText(/Content/), { target: { value: 'Orange pustules everywhere' } });
    await chooseCropDiseaseUrgency(user);
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Fill in all the fields')).toBeTruthy();
    expect(screen.getByText('Title is taken by the server')).toBeTruthy();
    expect(calls[0]).toMatchObject({
      method: 'POST',
      url: '/api/community/posts/',
      body: { title: 'Rust on my maize', crop_type: 'MAIZE', disease_type: 'common_rust', urgency_level: 'high' },
    });
  });
});

describe('in Kiswahili and Luganda', () => {
  beforeEach(() => {
    i18n.addResourceBundle('sw', 'translation', swahili, true, true);
    i18n.addResourceBundle('lg', 'translation', luganda, true, true);
  });
  afterEach(async () => {
    await act(() => i18n.changeLanguage('en'));
  });

  it("shows the form's contract errors and its choices in Kiswahili", async () => {
    await act(() => i18n.changeLanguage('sw'));
    renderWithProviders(<PostForm />);
    fireEvent.change(screen.getByLabelText(/Kichwa/), { target: { value: 'Hey' } });
    fireEvent.click(screen.getByRole('button', { name: swahili.community.actions.submit }));
    expect(await screen.findByText('Maelezo: angalau herufi 10')).toBeTruthy();
    expect(screen.getByText('Chagua zao: Mahindi, Ngano, Mchele au Maharagwe')).toBeTruthy();
    expect(screen.getByText('Chagua uharaka: Chini, Wastani au Juu')).toBeTruthy();
    expect(screen.queryByText(/Choose|Content|characters/)).toBeNull();
    const crops = within(screen.getByRole('combobox', { name: /Aina ya zao/ }));
    expect(crops.getByRole('option', { name: 'Maharagwe' })).toBeTruthy();
    const urgency = within(screen.getByRole('combobox', { name: /Kiwango cha uharaka/ }));
    expect(urgency.getByRole('option', { name: 'Juu' })).toBeTruthy();
    const disease = within(screen.getByRole('combobox', { name: /Ugonjwa/ }));
    expect(disease.getByRole('option', { name: 'Sijui' })).toBeTruthy();
    expect(screen.queryByRole('option', { name: /Maize|Beans|High|I don't know|Common Rust/ })).toBeNull();
  });

  it("names the post's crop, disease and urgency in Luganda, the rust as the crop's farmers call it", async () => {
    await act(() => i18n.changeLanguage('lg'));
    renderWithProviders(
      <PostCard post={post({ crop_type: 'BEANS', disease_type: 'common_rust', urgency_level: 'low' })} />,
    );
    const card = screen.getByRole('article');
    expect(within(card).getByText(/Bijanjaalo/)).toBeTruthy();
    expect(within(card).getByText(/Kutu ya bijanjaalo \(Uromyces appendiculatus\)/)).toBeTruthy();
    expect(within(card).getByText(/Wansi/)).toBeTruthy();
    expect(card.textContent).not.toMatch(/BEANS|Beans|Common Rust|common rust|Low/);
  });

  it('calls a bean post\'s rust "bean rust" and a maize post\'s "common rust" in English', () => {
    renderWithProviders(
      <>
        <PostCard post={post({ id: 1, crop_type: 'BEANS' })} />
        <PostCard post={post({ id: 2, crop_type: 'MAIZE' })} />
      </>,
    );
    expect(within(screen.getByTestId('post-1')).getByText(/Bean rust \(Uromyces appendiculatus\)/)).toBeTruthy();
    expect(within(screen.getByTestId('post-1')).queryByText(/Common rust/)).toBeNull();
    expect(within(screen.getByTestId('post-2')).getByText(/Common rust \(Puccinia sorghi\)/)).toBeTruthy();
  });
});

describe('PostFilters', () => {
  it('sets a filter from its picker, and its first line ("All …") removes it', async () => {
    const onChange = vi.fn();
    const user = userEvent.setup();
    const first = renderWithProviders(<PostFilters value={{}} onChange={onChange} withStatus />);
    const crop = screen.getByRole<HTMLSelectElement>('combobox', { name: 'Crop' });
    expect(crop.value).toBe('');
    expect(crop.options[0]?.textContent).toBe('All crops');
    await user.selectOptions(crop, 'Maize');
    expect(onChange).toHaveBeenLastCalledWith({ crop_type: 'MAIZE' });

    first.unmount();
    renderWithProviders(
      <PostFilters value={{ crop_type: 'MAIZE', status: 'approved' }} onChange={onChange} withStatus />,
    );
    await user.selectOptions(screen.getByRole('combobox', { name: 'Crop' }), 'All crops');
    expect(onChange).toHaveBeenLastCalledWith({ crop_type: undefined, status: 'approved' });
  });
});

describe('PostForm photo', () => {
  const fileInput = () => document.querySelector<HTMLInputElement>('input[type="file"]')!;
  const file = (name: string, type: string, bytes: number) => new File([new Uint8Array(bytes)], name, { type });

  async function fillValidPost(user: ReturnType<typeof userEvent.setup>) {
    fireEvent.change(screen.getByLabelText(/Title/), { target: { value: 'Rust on my maize' } });
    fireEvent.change(screen.getByLabelText(/Content/), { target: { value: 'Orange pustules everywhere' } });
    await chooseCropDiseaseUrgency(user);
  }

  it('sends a chosen photo with the fields as multipart, after showing a preview', async () => {
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:preview', revokeObjectURL: () => {} }));
    reply = () => ({ status: 201, body: post({ status: 'pending' }) });
    const user = userEvent.setup({ delay: null });
    renderWithProviders(<PostForm />);
    await fillValidPost(user);
    await user.upload(fileInput(), file('leaf.jpg', 'image/jpeg', 2048));
    const preview = await screen.findByTestId('post-photo-preview');
    expect(within(preview).getByRole('img', { name: 'The chosen photo' }).getAttribute('src')).toBe('blob:preview');
    expect(within(preview).getByText('leaf.jpg')).toBeTruthy();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Submit' })).toHaveProperty('disabled', false));
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Community Post submitted for approval')).toBeTruthy();
    const sent = calls.find((c) => c.method === 'POST')!;
    expect(sent.url).toBe('/api/community/posts/');
    expect(sent.body).toBeUndefined();
    const form = sent.form!;
    expect({
      title: form.get('title'),
      content: form.get('content'),
      crop_type: form.get('crop_type'),
      disease_type: form.get('disease_type'),
      urgency_level: form.get('urgency_level'),
    }).toEqual({
      title: 'Rust on my maize',
      content: 'Orange pustules everywhere',
      crop_type: 'MAIZE',
      disease_type: 'common_rust',
      urgency_level: 'high',
    });
    expect((form.get('image') as File).name).toBe('leaf.jpg');
    // The form is cleared for the next post, photo included.
    expect(screen.queryByTestId('post-photo-preview')).toBeNull();
  });

  it('refuses other file types in the picker and shows what the server says about the photo', async () => {
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:preview', revokeObjectURL: () => {} }));
    reply = () => ({
      status: 415,
      body: { error: { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'File type not supported' } },
    });
    const user = userEvent.setup({ delay: null, applyAccept: false });
    renderWithProviders(<PostForm />);
    await user.upload(fileInput(), file('leaf.gif', 'image/gif', 100));
    expect((await screen.findAllByText('File type not supported')).length).toBeGreaterThan(0);
    expect(screen.queryByTestId('post-photo-preview')).toBeNull();
    expect(calls).toEqual([]);

    // A file named .jpg that is not one: the server judges it by content.
    await fillValidPost(user);
    await user.upload(fileInput(), file('notes.jpg', 'image/jpeg', 100));
    await screen.findByTestId('post-photo-preview');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Submit' })).toHaveProperty('disabled', false));
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(calls).toHaveLength(1));
    await waitFor(() => expect(screen.queryByText('Fill in all the fields')).toBeNull());
    expect(screen.getAllByText('File type not supported').length).toBeGreaterThan(0);
    // The photo stays chosen so it can be replaced.
    expect(screen.getByTestId('post-photo-preview')).toBeTruthy();
  });

  it('sends JSON when no photo is chosen', async () => {
    reply = () => ({ status: 201, body: post({ status: 'pending' }) });
    const user = userEvent.setup({ delay: null });
    renderWithProviders(<PostForm />);
    await fillValidPost(user);
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Community Post submitted for approval')).toBeTruthy();
    expect(calls[0]).toMatchObject({ method: 'POST', body: { title: 'Rust on my maize' }, form: undefined });
  });
});

describe('PostCard', () => {
  it("shows the post's photo, fetched with the session, with the title as its text alternative", async () => {
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:post-7', revokeObjectURL: () => {} }));
    renderWithProviders(<PostCard post={post({ image: '/api/community/posts/7/image/' })} />);
    const img = await screen.findByRole('img', { name: 'Orange spots on maize' });
    expect(img.getAttribute('src')).toBe('blob:post-7');
    expect(img.getAttribute('loading')).toBe('lazy');
    expect(calls.map((c) => c.url)).toEqual(['/api/community/posts/7/image/']);
  });

  it('shows no photo and fetches nothing for a post without one', () => {
    renderWithProviders(<PostCard post={post()} />);
    expect(screen.queryByRole('img')).toBeNull();
    expect(calls).toEqual([]);
  });

  it("shows the moderator's reason on a flagged post", () => {
    renderWithProviders(
      <PostCard
        post={post({ status: 'flagged', is_approved: false, is_flagged: true, moderation_reason: 'Off topic' })}
      />,
    );
    expect(screen.getByText('Reason: Off topic')).toBeTruthy();
  });
});

describe('comment dialogs', () => {
  it("says 'No post selected' when no post is chosen", async () => {
    renderWithProviders(<CommentDialog opened post={null} onClose={() => {}} />);
    expect(screen.getByText('Write a comment on this post')).toBeTruthy();
    fireEvent.change(screen.getByPlaceholderText('Write your comment about this post...'), {
      target: { value: 'hello' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    // The inline message and the notice (which appears once the toast package has loaded).
    await waitFor(() => expect(screen.getAllByText('No post selected')).toHaveLength(2));
    expect(calls).toEqual([]);
  });

  it('refuses an empty comment and submits a real one', async () => {
    const onClose = vi.fn();
    reply = () => ({ status: 201, body: {} });
    renderWithProviders(<CommentDialog opened post={post()} onClose={onClose} />);
    const box = screen.getByPlaceholderText('Write your comment about this post...');
    expect(box.getAttribute('rows')).toBe('4');
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Comment is required')).toBeTruthy();
    expect(calls).toEqual([]);
    fireEvent.change(box, { target: { value: 'Same on my farm' } });
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Your comment has been submitted')).toBeTruthy();
    expect(calls[0]).toMatchObject({ url: '/api/community/responses/7/', body: { content: 'Same on my farm' } });
    expect(onClose).toHaveBeenCalled();
  });

  it('shows both tabs with their empty messages and comments', async () => {
    const { unmount } = renderWithProviders(<CommentsDialog post={post()} onClose={() => {}} />);
    expect(screen.getByText("No farmers' comments available.")).toBeTruthy();
    fireEvent.click(screen.getByRole('tab', { name: 'Expert Comments' }));
    expect(await screen.findByText('No expert comments available.')).toBeTruthy();
    unmount();

    renderWithProviders(
      <CommentsDialog
        post={post({
          farmer_comments: [
            {
              id: 1,
              content: 'Me too',
              created_at: '2026-03-01T09:00:00Z',
              username: 'juma',
              farmer: 'juma',
              status: 'approved',
            },
          ],
          expert_comments: [
            {
              id: 2,
              content: '',
              created_at: '2026-03-01T10:00:00Z',
              username: 'dr_okello',
              expert: 'dr_okello',
              reply_to: 1,
            },
          ],
        })}
        onClose={() => {}}
      />,
    );
    const farmerCard = screen.getByTestId('comment-1');
    expect(within(farmerCard).getByText('J')).toBeTruthy();
    expect(within(farmerCard).getByText('Me too')).toBeTruthy();
    fireEvent.click(screen.getByRole('tab', { name: 'Expert Comments' }));
    expect(await screen.findByText('No comment provided.')).toBeTruthy();
  });
});

describe('AllPostsPage', () => {
  it('offers the actions of each state and approves with the approve action', async () => {
    const page = {
      count: 3,
      next: null,
      previous: null,
      results: [
        post({ id: 1, title: 'Pending one', status: 'pending', is_approved: false }),
        post({ id: 2, title: 'Flagged one', status: 'flagged', is_approved: false, is_flagged: true }),
        post({ id: 3, title: 'Approved one' }),
      ],
    };
    reply = (call) => (call.method === 'PUT' ? { status: 200, body: page.results[0] } : { status: 200, body: page });
    renderWithProviders(<AllPostsPage />);
    const buttons = async (id: number) =>
      within(await screen.findByTestId(`post-${id}`))
        .queryAllByRole('button')
        .map((b) => b.textContent);
    expect(await buttons(1)).toEqual(['Flag', 'Approve']);
    expect(await buttons(2)).toEqual(['Unflag', 'Approve']);
    expect(await buttons(3)).toEqual(['Flag']);
    expect(within(screen.getByTestId('post-3')).getByRole('link', { name: 'Open comments' }).getAttribute('href')).toBe(
      '/account/addresses/3',
    );

    fireEvent.click(within(screen.getByTestId('post-1')).getByRole('button', { name: 'Approve' }));
    expect(await screen.findByText('Community Post has been approved')).toBeTruthy();
    expect(calls.find((c) => c.method === 'PUT')).toMatchObject({
      url: '/api/community/posts/moderate/1/',
      body: { action: 'approve' },
    });
    // The list reloads after the change.
    await waitFor(() => expect(calls.filter((c) => c.url.startsWith('/api/community/posts/all/')).length).toBe(2));
  });

  it("shows the spec's failure notice with the server's reason", async () => {
    const page = { count: 1, next: null, previous: null, results: [post({ id: 1, status: 'pending' })] };
    reply = (call) =>
      call.method === 'PUT'
        ? { status: 409, body: { error: { code: 'CONFLICT', message: 'This post is already flagged' } } }
        : { status: 200, body: page };
    renderWithProviders(<AllPostsPage />);
    fireEvent.click(within(await screen.findByTestId('post-1')).getByRole('button', { name: 'Flag' }));
    const dialog = await screen.findByRole('dialog', { name: 'Flag this post' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Flag' }));
    expect(await screen.findByText('Community Post was not flagged')).toBeTruthy();
    expect(screen.getByText('This post is already flagged')).toBeTruthy();
  });

  it('asks for an optional reason before flagging and sends it', async () => {
    const page = { count: 1, next: null, previous: null, results: [post({ id: 3, title: 'Approved one' })] };
    reply = (call) => (call.method === 'PUT' ? { status: 200, body: page.results[0] } : { status: 200, body: page });
    renderWithProviders(<AllPostsPage />);
    fireEvent.click(within(await screen.findByTestId('post-3')).getByRole('button', { name: 'Flag' }));
    const dialog = await screen.findByRole('dialog', { name: 'Flag this post' });
    expect(within(dialog).getByText('Approved one')).toBeTruthy();
    // Cancelling sends nothing.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Flag this post' })).toBeNull());
    expect(calls.filter((c) => c.method === 'PUT')).toEqual([]);

    fireEvent.click(within(screen.getByTestId('post-3')).getByRole('button', { name: 'Flag' }));
    const again = await screen.findByRole('dialog', { name: 'Flag this post' });
    fireEvent.change(within(again).getByLabelText('Reason (optional)'), {
      target: { value: '  Selling pesticide, not a question  ' },
    });
    fireEvent.click(within(again).getByRole('button', { name: 'Flag' }));
    expect(await screen.findByText('Community Post has been flagged')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'PUT')).toEqual([
      {
        url: '/api/community/posts/moderate/3/',
        method: 'PUT',
        body: { action: 'flag', reason: 'Selling pesticide, not a question' },
        form: undefined,
      },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Flag this post' })).toBeNull());
  });

  it('flags without a reason when none is given', async () => {
    const page = { count: 1, next: null, previous: null, results: [post({ id: 3 })] };
    reply = (call) => (call.method === 'PUT' ? { status: 200, body: page.results[0] } : { status: 200, body: page });
    renderWithProviders(<AllPostsPage />);
    fireEvent.click(within(await screen.findByTestId('post-3')).getByRole('button', { name: 'Flag' }));
    const dialog = await screen.findByRole('dialog', { name: 'Flag this post' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Flag' }));
    expect(await screen.findByText('Community Post has been flagged')).toBeTruthy();
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ action: 'flag' });
  });

  it('shows an error state with a retry', async () => {
    reply = () => ({ status: 500, body: { error: { code: 'INTERNAL_ERROR', message: 'Something broke' } } });
    renderWithProviders(<AllPostsPage />);
    expect(await screen.findByText('Could not load this list')).toBeTruthy();
    expect(screen.getByText('Something broke')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });
});
