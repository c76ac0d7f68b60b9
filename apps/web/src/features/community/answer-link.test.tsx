import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../test/render.tsx';
import { CommentsDialog } from './components/CommentsDialog.tsx';

describe("an expert's answer opened from its notification (decision 0049)", () => {
  it("opens the post's dialog on the experts' tab with the answer marked", async () => {
    const post = {
      id: 3,
      title: 'Brown spots',
      farmer_comments: [],
      expert_comments: [{ id: 12, username: 'expert1', created_at: '2026-11-26T08:00:00.000Z', content: 'Rust.' }],
    } as unknown as Parameters<typeof CommentsDialog>[0]['post'];
    renderWithProviders(<CommentsDialog post={post} answerId={12} onClose={() => {}} />);
    const answerCard = await screen.findByTestId('comment-12');
    await waitFor(() => expect(answerCard.getAttribute('data-answer')).toBe('true'));
    expect(screen.getByRole('tab', { name: 'Expert Comments' }).getAttribute('aria-selected')).toBe('true');
  });
});
