import { type ComponentProps, Suspense } from 'react';
import { optionalLazy } from '../../../components/optional-lazy.ts';
import type { OfflineResult } from './OfflineResult.tsx';

/**
 * An answer made on the phone with no signal: its card loads just after the upload screen (started by the
 * screen's effect, so it is in memory before the signal drops), not in the screen's first download
 * (decision 0121).
 */
const view = optionalLazy<ComponentProps<typeof OfflineResult>>(() =>
  import('./OfflineResult.tsx').then((m) => ({ default: m.OfflineResult })),
);
export const preloadOfflineResult = view.preload;

export function OfflineResultLater(props: ComponentProps<typeof OfflineResult>) {
  return (
    <Suspense fallback={null}>
      <view.Component {...props} />
    </Suspense>
  );
}
