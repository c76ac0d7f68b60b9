import { Suspense } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import { optionalLazy } from './optional-lazy.ts';

const Hello = ({ name }: { name: string }) => <p>Hello {name}</p>;

function shown(Component: React.ComponentType<{ name: string }>) {
  return render(
    <Suspense fallback={<p>loading</p>}>
      <span>screen</span>
      <Component name="Amina" />
    </Suspense>,
  );
}

describe('optionalLazy', () => {
  it('shows the part once its code is in', async () => {
    const { Component } = optionalLazy(async () => ({ default: Hello }));
    shown(Component);
    expect(await screen.findByText('Hello Amina')).toBeTruthy();
  });

  it('leaves the part out, and keeps the screen, when its code cannot load', async () => {
    const { Component } = optionalLazy<{ name: string }>(() => Promise.reject(new TypeError('Failed to fetch')));
    shown(Component);
    expect(await screen.findByText('screen')).toBeTruthy();
    expect(screen.queryByText(/Hello/)).toBeNull();
  });

  it('loads once when preloaded, and the render uses what the preload fetched (no second download)', async () => {
    const load = vi.fn(async () => ({ default: Hello }));
    const { Component, preload } = optionalLazy(load);
    preload();
    preload();
    shown(Component);
    expect(await screen.findByText('Hello Amina')).toBeTruthy();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('tries again after a failed preload (no signal then, a signal later)', async () => {
    const load = vi
      .fn<() => Promise<{ default: typeof Hello }>>()
      .mockRejectedValueOnce(new TypeError('Failed to fetch'))
      .mockResolvedValue({ default: Hello });
    const { Component, preload } = optionalLazy(load);
    preload();
    await new Promise((done) => setTimeout(done, 0)); // the failed try is over
    shown(Component);
    expect(await screen.findByText('Hello Amina')).toBeTruthy();
    expect(load).toHaveBeenCalledTimes(2);
  });
});
