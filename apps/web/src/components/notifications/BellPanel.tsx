import { type ReactElement, useEffect, useRef } from 'react';
import { Popover } from '@mantine/core';
import { NotificationList } from './NotificationList.tsx';
import { NotificationsHeader } from './NotificationsHeader.tsx';

/**
 * The bell's popover with the list, loaded on the first click (NotificationsBell): the popover's
 * positioning library and the scrolling list stay out of every signed-in screen's first download.
 * It opens at once, since that click asked for it, and gives the new button the focus the old one had.
 */
export default function BellPanel({ target, focused }: { target: ReactElement; focused: boolean }) {
  const wrapper = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (focused) wrapper.current?.querySelector('button')?.focus();
  }, [focused]);
  return (
    <div ref={wrapper} style={{ display: 'contents' }}>
      <Popover width={360} position="bottom-end" shadow="md" withArrow defaultOpened>
        <Popover.Target>{target}</Popover.Target>
        <Popover.Dropdown maw="calc(100vw - 16px)">
          <NotificationsHeader size="xs" />
          <NotificationList maxHeight={300} />
        </Popover.Dropdown>
      </Popover>
    </div>
  );
}
