import { useLayoutEffect, useRef, useState } from 'react';
import { SegmentedControl, type SegmentedControlProps } from '@mantine/core';
import { useViewportSize } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';

/**
 * Whether a choice is cut short: the row is wider than the room it has (its end is clipped), or a label
 * ends in an ellipsis.
 */
function labelCut(root: HTMLElement): boolean {
  const clipped = (el: HTMLElement) => el.scrollWidth > el.clientWidth + 1;
  return clipped(root) || [...root.querySelectorAll<HTMLElement>('.mantine-SegmentedControl-label')].some(clipped);
}

/**
 * A row of choices that stacks them in a column when a label would be cut short: five statuses, or the
 * longer Kiswahili and Luganda words, do not fit side by side on a 390 px phone. It is tried in a row
 * again whenever the screen's width, the language or the choices change.
 */
export function FittingSegmentedControl(props: SegmentedControlProps) {
  const root = useRef<HTMLDivElement>(null);
  const { width } = useViewportSize();
  const { i18n } = useTranslation();
  const [stacked, setStacked] = useState(false);
  const labels = props.data.map((d) => (typeof d === 'string' ? d : String(d.label))).join('\n');

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new width, language or labels asks for a new try in a row
  useLayoutEffect(() => setStacked(false), [width, i18n.language, labels]);
  useLayoutEffect(() => {
    if (!stacked && root.current && labelCut(root.current)) setStacked(true);
  });

  return (
    <SegmentedControl
      ref={root}
      {...props}
      orientation={stacked ? 'vertical' : props.orientation}
      fullWidth={stacked || props.fullWidth}
      data-stacked={stacked || undefined}
    />
  );
}
