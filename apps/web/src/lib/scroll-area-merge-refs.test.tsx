import { renderHook } from '@testing-library/react';
import { createRef } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { useMergeRefs } from './scroll-area-merge-refs.ts';

describe("the ScrollArea's useMergeRefs", () => {
  it('gives the node to every ref, skips the missing ones and runs a callback ref’s cleanup', () => {
    const objectRef = createRef<HTMLDivElement>();
    const cleanup = vi.fn();
    const callbackRef = vi.fn(() => cleanup);
    const { result } = renderHook(() => useMergeRefs<HTMLDivElement>([objectRef, undefined, callbackRef]));
    const node = document.createElement('div');
    const release = result.current(node) as unknown as () => void;
    expect(objectRef.current).toBe(node);
    expect(callbackRef).toHaveBeenCalledWith(node);
    release();
    expect(cleanup).toHaveBeenCalledOnce();
    expect(objectRef.current).toBeNull();
  });
});
