import { useId as useReactId } from 'react';

/**
 * `useId` of @mantine/hooks, which Mantine's inputs, AppShell sections and popovers call, returning React's
 * id alone; vite.config.ts resolves Mantine's module to this one. Mantine's own returns React's id, then
 * swaps in a random one from a layout effect (a leftover from React 17, which had no useId). That second,
 * synchronous render of each such component as a screen appears made React also run the screen's effects
 * in the same task: on the dashboard's start, one long task instead of two short ones
 * (docs/decisions/0016). React's id is unique within the app's one root, which is all Mantine needs.
 */
export function useId(staticId?: string): string {
  const reactId = useReactId();
  return typeof staticId === 'string' ? staticId : `mantine-${reactId.replace(/[^\w-]/g, '')}`;
}
