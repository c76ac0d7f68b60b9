import { Suspense } from 'react';
import type { ProgressProps } from '@mantine/core';
import { optionalLazy } from './optional-lazy.ts';

/**
 * Mantine's progress bar where a screen shows it only once the user has chosen something (the upload
 * screen, while it sends): started with this module, not in the screen's first download (decision 0121).
 * Until it is in, a box of the bar's height (size md) holds its place.
 */
const view = optionalLazy<ProgressProps>(() => import('./ProgressBar.tsx'));
view.preload();

export function ProgressLater(props: ProgressProps) {
  return (
    <Suspense fallback={<div style={{ height: 'calc(0.5rem * var(--mantine-scale))' }} />}>
      <view.Component {...props} />
    </Suspense>
  );
}
