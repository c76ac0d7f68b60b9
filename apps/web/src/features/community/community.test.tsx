import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CommunityPost } from '@kutu/contract';
import { renderWithProviders } from '../../test/render.tsx';
import { CommentDialog } from './components/CommentDialog.tsx';
import { CommentsDialog } from './components/CommentsDialog.tsx';
import { PostForm } from './components/PostForm.tsx';
import AllPostsPage from './pages/AllPostsPage.tsx';

const post = (over: Partial<CommunityPost> = {}): CommunityPost => ({
  id: 7,
  title: 'Orange spots on maize',
  content: 'Small orange pustules on the leaves.',
  image: null,
  disease_type: 'common_rust',
  crop_type: 'MAIZE',
  urgency_level: 'high',
  rust_detection: null,
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

type Call = { url: string; method: string; body: unknown };
let calls: Call[];
let reply: (call: Call) => { status: number; body: unknown };

beforeEach(() => {
  calls = [];
  reply = () => ({ status: 200, body: {} });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const call = { url, method: init.method ?? 'GET', body: init.body ? JSON.parse(String(init.body)) : undefined };
      calls.push(call);
      const { status, body } = reply(call);
      return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

describe('PostForm', () => {
  it('checks the fields with the contract schema before sending anything', async () => {
    renderWithProviders(<PostForm />);
    fireEvent.change(screen.getByLabelText(/Title/), { target: { value: 'Hey' } });
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Title must be at least 5 characters')).toBeTruthy();
    expect(screen.getByText('Content must be at least 10 characters')).toBeTruthy();
    expect(screen.getByText('Choose a crop type: MAIZE, WHEAT, RICE or BEANS')).toBeTruthy();
    expect(calls).toEqual([]);
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
    for (const [label, option] of [
      [/Crop type/, 'Maize'],
      [/Disease/, 'Common Rust'],
      [/Urgency level/, 'High'],
    ] as const) {
      await user.click(screen.getAllByLabelText(label).find((el) => el.tagName === 'INPUT')!);
      // The dropdown is still in its opening transition, so its options count as hidden for a moment.
      fireEvent.click(await screen.findByRole('option', { name: option, hidden: true }));
    }
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

describe('comment dialogs', () => {
  it("says 'No post selected' when no post is chosen", async () => {
    renderWithProviders(<CommentDialog opened post={null} onClose={() => {}} />);
    expect(screen.getByText('Write a comment on this post')).toBeTruthy();
    fireEvent.change(screen.getByPlaceholderText('Write your comment about this post...'), {
      target: { value: 'hello' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findAllByText('No post selected')).toHaveLength(2);
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
    expect(await screen.findByText('Community Post was not flagged')).toBeTruthy();
    expect(screen.getByText('This post is already flagged')).toBeTruthy();
  });

  it('shows an error state with a retry', async () => {
    reply = () => ({ status: 500, body: { error: { code: 'INTERNAL_ERROR', message: 'Something broke' } } });
    renderWithProviders(<AllPostsPage />);
    expect(await screen.findByText('Could not load this list.')).toBeTruthy();
    expect(screen.getByText('Something broke')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });
});
