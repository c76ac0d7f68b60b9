import { ActionIcon, Indicator, Popover } from '@mantine/core';
import { IconBell } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useNotifications, useNotificationStream } from '../api/notifications.ts';
import { NotificationList } from './NotificationList.tsx';
import { NotificationsHeader } from './NotificationsHeader.tsx';

/** Top-bar bell: unread badge, the list in a popover; keeps the live stream open while signed in. */
export function NotificationsBell() {
  const { t } = useTranslation();
  useNotificationStream();
  const { unreadCount } = useNotifications();
  const label = t('notifications.bellLabel', { count: unreadCount });
  return (
    // The badge sits outside the popover's target so aria-expanded lands on the button, not on a div.
    <Indicator
      label={unreadCount > 99 ? '99+' : unreadCount}
      size={18}
      color="red"
      disabled={unreadCount === 0}
      offset={4}
      data-testid="unread-badge"
    >
      <Popover width={360} position="bottom-end" shadow="md" withArrow>
        <Popover.Target>
          <ActionIcon variant="subtle" size="lg" aria-label={label} title={label}>
            <IconBell size={20} />
          </ActionIcon>
        </Popover.Target>
        <Popover.Dropdown maw="calc(100vw - 16px)">
          <NotificationsHeader size="xs" />
          <NotificationList maxHeight={300} />
        </Popover.Dropdown>
      </Popover>
    </Indicator>
  );
}
