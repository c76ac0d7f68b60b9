import { RemoveScroll as library } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { RemoveScroll } from './app-shell-remove-scroll.ts';

describe("the AppShell's RemoveScroll class names", () => {
  it('are those the dialogs’ scroll lock styles', () => {
    expect(RemoveScroll.classNames).toEqual({
      fullWidth: library.classNames.fullWidth,
      zeroRight: library.classNames.zeroRight,
    });
  });
});
