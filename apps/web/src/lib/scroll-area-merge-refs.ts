import type { Ref } from 'react';
import { useMergedRef } from '@mantine/hooks';

/**
 * `useMergeRefs` of @floating-ui/react, the one thing Mantine's ScrollArea takes from it; vite.config.ts
 * resolves the ScrollArea's import to this module. Through the shared chunk, that import brought all of
 * floating-ui (13.7 KiB brotli, the popovers' positioning) to every screen with a dialog, a table or a
 * scrolled list, none of which positions anything. Mantine's own merged ref does the same: each ref gets
 * the node, and a callback ref's cleanup is called when the node goes.
 */
export function useMergeRefs<T>(refs: (Ref<T> | undefined)[]): (node: T | null) => void {
  return useMergedRef(...refs);
}
