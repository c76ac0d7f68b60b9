import { type ComponentType, lazy } from 'react';

/**
 * A part that loads after the screen and that the screen can do without: `React.lazy` of `load`, which
 * renders nothing when its code cannot load (no signal on a phone that never cached it) rather than
 * failing the screen. `preload` starts it ahead of need (the screen's effect), so it is in memory when
 * the signal drops. A failed preload is tried again by the next preload or the first render; a part that
 * rendered as nothing (React keeps what `lazy` resolved to) stays out until the app is opened again.
 */
export function optionalLazy<P extends object>(load: () => Promise<{ default: ComponentType<P> }>) {
  let loading: Promise<{ default: ComponentType<P> }> | undefined;
  const once = () => {
    loading ??= load().catch((err: unknown) => {
      loading = undefined; // tried again by the next preload or the first render
      throw err;
    });
    return loading;
  };
  const nothing: ComponentType<P> = () => null;
  const Component = lazy(() => once().catch(() => ({ default: nothing })));
  return { Component, preload: () => void once().catch(() => {}) };
}
