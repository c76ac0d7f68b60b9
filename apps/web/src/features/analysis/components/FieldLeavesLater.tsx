import { type ComponentProps, Suspense } from 'react';
import { optionalLazy } from '../../../components/optional-lazy.ts';
import type { FieldLeaves } from './FieldLeaves.tsx';

/**
 * The chosen leaves, shown once a photo is picked: started with the upload screen (in memory by the first
 * pick, also with no signal), not in its first download (decision 0121).
 */
const view = optionalLazy<ComponentProps<typeof FieldLeaves>>(() =>
  import('./FieldLeaves.tsx').then((m) => ({ default: m.FieldLeaves })),
);
view.preload();

export function FieldLeavesLater(props: ComponentProps<typeof FieldLeaves>) {
  if (props.leaves.length === 0) return null;
  return (
    <Suspense fallback={null}>
      <view.Component {...props} />
    </Suspense>
  );
}
