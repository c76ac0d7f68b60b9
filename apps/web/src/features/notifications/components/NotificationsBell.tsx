import { ActionIcon, Badge, Button, Group, Indicator, Popover, Text } from '@mantine/core';
import { IconBell } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useMarkAllRead, useNotifications, useNotificationStream } from '../api/notifications.ts';
import { NotificationList } from './NotificationList.tsx';

/** Top-bar bell: unread badge, the list in a popover; keeps the live stream open while signed in. */
export function NotificationsBell() {
  const { t } = useTranslation();
  useNotificationStream();
  const { unreadCount } = useNotifications();
  const markAll = useMarkAllRead();
  const label = t('notifications.bellLabel', { count: unreadCount });
  return (
    <Popover width={360} position="bottom-end" shadow="md" withArrow>
      <Popover.Target>
        <Indicator
          label={unreadCount > 99 ? '99+' : unreadCount}
          size={18}
          color="red"
          disabled={unreadCount === 0}
          offset={4}
          data-testid="unread-badge"
        >
          <ActionIcon variant="subtle" size="lg" aria-label={label} title={label}>
            <IconBell size={20} />
          </ActionIcon>
        </Indicator>
      </Popover.Target>
      <Popover.Dropdown>
        <Group justify="space-between" mb="xs">
          <Group gap="xs">
            <Text fw={600}>{t('notifications.title')}</Text>
            <Badge variant="light" color={unreadCount ? 'red' : 'gray'}>
              {t('notifications.unread', { count: unreadCount })}
            </Badge>
          </Group>
          <Button
            size="compact-xs"
            variant="subtle"
            disabled={unreadCount === 0}
            loading={markAll.isPending}
            onClick={() => markAll.mutate()}
          >
            {t('notifications.markAllRead')}
          </Button>
        </Group>
        <NotificationList maxHeight={300} />
      </Popover.Dropdown>
    </Popover>
  );
}
