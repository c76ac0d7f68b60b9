import { Badge, Button, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useMarkAllRead, useNotifications } from '../../api/notifications.ts';

/**
 * Title, unread count and "Mark all read" above a notification list (the bell's popover and the
 * dashboard card). `size` sets the gap below and the button's size; `countOnceLoaded` hides the count
 * until the list has loaded.
 */
export function NotificationsHeader({
  size,
  countOnceLoaded = false,
  countTestId,
}: {
  size: 'xs' | 'sm';
  countOnceLoaded?: boolean;
  countTestId?: string;
}) {
  const { t } = useTranslation();
  const { unreadCount, query } = useNotifications();
  const markAll = useMarkAllRead();
  return (
    <Group justify="space-between" mb={size}>
      <Group gap="xs">
        <Text fw={600}>{t('notifications.title')}</Text>
        {(query.isSuccess || !countOnceLoaded) && (
          <Badge variant="light" color={unreadCount ? 'red' : 'gray'} data-testid={countTestId}>
            {t('notifications.unread', { count: unreadCount })}
          </Badge>
        )}
      </Group>
      <Button
        size={`compact-${size}`}
        variant="subtle"
        disabled={unreadCount === 0}
        loading={markAll.isPending}
        onClick={() => markAll.mutate()}
      >
        {t('notifications.markAllRead')}
      </Button>
    </Group>
  );
}
