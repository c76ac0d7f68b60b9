import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import { renderWithProviders } from '../test/render.tsx';
import { FittingSegmentedControl } from './FittingSegmentedControl.tsx';

const data = ['Byonna', 'Kirindiridde', 'Kikkiriziddwa', 'Kigaaniddwa', 'Kisaziddwamu'];

/** jsdom lays nothing out: give the control's row a width and its content the width its words need. */
function layout(contentWidth: number, roomWidth: number) {
  vi.spyOn(HTMLElement.prototype, 'scrollWidth', 'get').mockImplementation(function (this: HTMLElement) {
    return this.classList.contains('mantine-SegmentedControl-root') ? contentWidth : 0;
  });
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockImplementation(function (this: HTMLElement) {
    return this.classList.contains('mantine-SegmentedControl-root') ? roomWidth : 0;
  });
}

afterEach(() => vi.restoreAllMocks());

describe('FittingSegmentedControl', () => {
  it('stacks the choices in a column when their words do not fit side by side', () => {
    layout(470, 358);
    renderWithProviders(<FittingSegmentedControl aria-label="Status" data={data} defaultValue="Byonna" />);
    const root = document.querySelector('.mantine-SegmentedControl-root')!;
    expect(root.getAttribute('data-stacked')).toBe('true');
    expect(root.getAttribute('data-orientation')).toBe('vertical');
    for (const label of data) expect(screen.getByText(label)).toBeTruthy();
  });

  it('keeps them in a row when they fit', () => {
    layout(300, 358);
    renderWithProviders(<FittingSegmentedControl aria-label="Status" data={data} defaultValue="Byonna" />);
    const root = document.querySelector('.mantine-SegmentedControl-root')!;
    expect(root.getAttribute('data-stacked')).toBeNull();
    expect(root.getAttribute('data-orientation')).not.toBe('vertical');
  });
});
