import { type ComponentProps, Suspense } from 'react';
import { optionalLazy } from '../optional-lazy.ts';
import type { ListenButton } from './ListenButton.tsx';

/**
 * The listen button where a screen shows it only once its data is in (the upload screen's follow-up
 * choice): started with this module, it is in memory by then, and is not in the screen's first download
 * (decision 0121). Until then a box of its height holds its place; without its code it is left out.
 */
const view = optionalLazy<ComponentProps<typeof ListenButton>>(() =>
  import('./ListenButton.tsx').then((m) => ({ default: m.ListenButton })),
);
view.preload();

export function ListenButtonLater(props: ComponentProps<typeof ListenButton>) {
  return (
    <Suspense fallback={<div style={{ height: 'calc(1.875rem * var(--mantine-scale))' }} />}>
      <view.Component {...props} />
    </Suspense>
  );
}
