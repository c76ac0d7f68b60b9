import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { useQueue } from './queue.ts';

function Waiting({ onRender }: { onRender: () => void }) {
  onRender();
  return <p data-testid="waiting">{useQueue().length}</p>;
}

describe('useQueue', () => {
  it('renders a few times, not endlessly, when nothing is queued', async () => {
    let renders = 0;
    render(<Waiting onRender={() => renders++} />);
    expect(screen.getByTestId('waiting').textContent).toBe('0');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(renders).toBeLessThanOrEqual(2);
  });
});
